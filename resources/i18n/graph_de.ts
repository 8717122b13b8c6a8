<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>GraphCanvas</name>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_canvas.py" line="243"/>
        <source>Unresolved link: {0}</source>
        <translation>Nicht aufgelöster Link: {0}</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_canvas.py" line="244"/>
        <source>{0}
Type: {1}
Path: {2}</source>
        <translation>{0}
Typ: {1}
Pfad: {2}</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_canvas.py" line="247"/>
        <source>{0}: {1} → {2}
Provenance: {3}
Rule: {4}
Confidence: {5}</source>
        <translation>{0}: {1} → {2}
Herkunft: {3}
Regel: {4}
Konfidenz: {5}</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_canvas.py" line="255"/>
        <source>(deleted)</source>
        <translation>(gelöscht)</translation>
    </message>
</context>
<context>
    <name>GraphControls</name>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="47"/>
        <source>Neighbourhood</source>
        <translation>Nachbarschaft</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="48"/>
        <source>Whole vault</source>
        <translation>Ganzer Vault</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="50"/>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="108"/>
        <source>All kinds</source>
        <translation>Alle Arten</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="52"/>
        <source>Both ways</source>
        <translation>Beide Richtungen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="53"/>
        <source>Outgoing</source>
        <translation>Ausgehend</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="54"/>
        <source>Incoming</source>
        <translation>Eingehend</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="57"/>
        <source>Depth </source>
        <translation>Tiefe </translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="58"/>
        <source>Show deleted</source>
        <translation>Gelöschte zeigen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="64"/>
        <source>Show:</source>
        <translation>Zeigen:</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="65"/>
        <source>Kind:</source>
        <translation>Art:</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="66"/>
        <source>Direction:</source>
        <translation>Richtung:</translation>
    </message>
</context>
<context>
    <name>GraphSidePanel</name>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="139"/>
        <source>Create edge</source>
        <translation>Kante anlegen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="140"/>
        <source>Clear</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="141"/>
        <source>New edge</source>
        <translation>Neue Kante</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="143"/>
        <source>From:</source>
        <translation>Von:</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="144"/>
        <source>To:</source>
        <translation>Nach:</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="145"/>
        <source>Kind:</source>
        <translation>Art:</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="152"/>
        <source>Legend</source>
        <translation>Legende</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="154"/>
        <source>Selected note</source>
        <translation>Ausgewählte Notiz</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="156"/>
        <source>Neighbours</source>
        <translation>Nachbarn</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="189"/>
        <source>unresolved link</source>
        <translation>nicht aufgelöster Link</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="192"/>
        <source>- - dashed: made by a rule</source>
        <translation>- - gestrichelt: von einer Regel erzeugt</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="203"/>
        <source>{0}
Type: {1}</source>
        <translation>{0}
Typ: {1}</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="216"/>
        <source>(context menu: Start edge from here)</source>
        <translation>(Kontextmenü: Kante hier beginnen)</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_panels.py" line="217"/>
        <source>(context menu: Connect to here)</source>
        <translation>(Kontextmenü: Hierher verbinden)</translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="124"/>
        <source>Loading the graph…</source>
        <translation>Graph wird geladen …</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="193"/>
        <source>Laying out {0} notes…</source>
        <translation>{0} Notizen werden angeordnet …</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="225"/>
        <source>{0} notes, {1} edges</source>
        <translation>{0} Notizen, {1} Kanten</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="281"/>
        <source>Restore edge</source>
        <translation>Kante wiederherstellen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="284"/>
        <source>Delete edge</source>
        <translation>Kante löschen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="288"/>
        <source>Show its neighbourhood</source>
        <translation>Nachbarschaft zeigen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="290"/>
        <source>Start edge from here</source>
        <translation>Kante hier beginnen</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="292"/>
        <source>Connect to here</source>
        <translation>Hierher verbinden</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/graph_view.py" line="348"/>
        <source>Pick a source note, a target note and a kind first.</source>
        <translation>Wähle zuerst eine Quell-Notiz, eine Ziel-Notiz und eine Art.</translation>
    </message>
</context>
</TS>
