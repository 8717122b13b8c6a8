<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>GraphAnswer</name>
    <message>
        <source>cited in the answer</source>
        <translation>in der Antwort zitiert</translation>
    </message>
    <message>
        <source>faint: joins sources, not one</source>
        <translation>blass: verbindet Quellen, selbst keine</translation>
    </message>
    <message>
        <source>Cited in the answer</source>
        <translation>In der Antwort zitiert</translation>
    </message>
    <message>
        <source>A source of the answer, not cited</source>
        <translation>Eine Quelle der Antwort, nicht zitiert</translation>
    </message>
    <message>
        <source>Links sources of the answer</source>
        <translation>Verbindet Quellen der Antwort</translation>
    </message>
</context>
<context>
    <name>GraphCanvas</name>
    <message>
        <source>Unresolved link: %1</source>
        <translation>Nicht aufgelöster Link: %1</translation>
    </message>
    <message>
        <source>%1
Type: %2
Path: %3</source>
        <translation>%1
Typ: %2
Pfad: %3</translation>
    </message>
    <message>
        <source>%1: %2 → %3
Provenance: %4
Rule: %5
Confidence: %6</source>
        <translation>%1: %2 → %3
Herkunft: %4
Regel: %5
Konfidenz: %6</translation>
    </message>
    <message>
        <source>(deleted)</source>
        <translation>(gelöscht)</translation>
    </message>
</context>
<context>
    <name>GraphControls</name>
    <message>
        <source>Neighbourhood</source>
        <translation>Nachbarschaft</translation>
    </message>
    <message>
        <source>Whole vault</source>
        <translation>Ganzer Vault</translation>
    </message>
    <message>
        <source>A note&apos;s neighbourhood, the whole vault, or the last answer&apos;s sources</source>
        <translation>Die Nachbarschaft einer Notiz, der ganze Vault oder die Quellen der letzten Antwort</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>Alle Arten</translation>
    </message>
    <message>
        <source>Both ways</source>
        <translation>Beide Richtungen</translation>
    </message>
    <message>
        <source>Outgoing</source>
        <translation>Ausgehend</translation>
    </message>
    <message>
        <source>Incoming</source>
        <translation>Eingehend</translation>
    </message>
    <message>
        <source>Depth </source>
        <translation>Tiefe </translation>
    </message>
    <message>
        <source>Show deleted</source>
        <translation>Gelöschte zeigen</translation>
    </message>
    <message>
        <source>Find a note (title or alias)</source>
        <translation>Notiz finden (Titel oder Alias)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Community</source>
        <translation>Community</translation>
    </message>
    <message>
        <source>Unresolved links</source>
        <translation>Unaufgelöste Links</translation>
    </message>
    <message>
        <source>Notes without links</source>
        <translation>Notizen ohne Links</translation>
    </message>
    <message>
        <source>Rule-made edges</source>
        <translation>Kanten aus Regeln</translation>
    </message>
    <message>
        <source>Show or hide the filters and colours</source>
        <translation>Filter und Farben zeigen oder verbergen</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Zeigen:</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>Art:</translation>
    </message>
    <message>
        <source>Direction:</source>
        <translation>Richtung:</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>Farbe:</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>Ordner:</translation>
    </message>
    <message>
        <source>Tag:</source>
        <translation>Tag:</translation>
    </message>
    <message>
        <source>Show also:</source>
        <translation>Auch zeigen:</translation>
    </message>
    <message>
        <source>Filters</source>
        <translation>Filter</translation>
    </message>
    <message>
        <source>Filters (%1)</source>
        <translation>Filter (%1)</translation>
    </message>
    <message>
        <source>Last answer</source>
        <translation>Letzte Antwort</translation>
    </message>
    <message>
        <source>All folders</source>
        <translation>Alle Ordner</translation>
    </message>
    <message>
        <source>All tags</source>
        <translation>Alle Tags</translation>
    </message>
</context>
<context>
    <name>GraphSidePanel</name>
    <message>
        <source>Only not yet linked</source>
        <translation>Nur noch nicht verknüpfte</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Verknüpfen</translation>
    </message>
    <message>
        <source>Create a related_to edge to the chosen note</source>
        <translation>Eine related_to-Kante zur gewählten Notiz anlegen</translation>
    </message>
    <message>
        <source>Create edge</source>
        <translation>Kante anlegen</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>New edge</source>
        <translation>Neue Kante</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>Von:</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>Nach:</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>Art:</translation>
    </message>
    <message>
        <source>Related</source>
        <translation>Verwandt</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>Legende</translation>
    </message>
    <message>
        <source>Neighbours</source>
        <translation>Nachbarn</translation>
    </message>
    <message>
        <source>- - dashed: made by a rule</source>
        <translation>- - gestrichelt: von einer Regel erzeugt</translation>
    </message>
    <message>
        <source>%1
Type: %2</source>
        <translation>%1
Typ: %2</translation>
    </message>
    <message>
        <source>[linked]</source>
        <translation>[verknüpft]</translation>
    </message>
    <message>
        <source>(context menu: Start edge from here)</source>
        <translation>(Kontextmenü: Kante hier beginnen)</translation>
    </message>
    <message>
        <source>(context menu: Connect to here)</source>
        <translation>(Kontextmenü: Hierher verbinden)</translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message>
        <source>Loading the graph…</source>
        <translation>Graph wird geladen …</translation>
    </message>
    <message>
        <source>Laying out %1 notes…</source>
        <translation>%1 Notizen werden angeordnet …</translation>
    </message>
    <message>
        <source>%1 notes, %2 edges</source>
        <translation>%1 Notizen, %2 Kanten</translation>
    </message>
    <message>
        <source>Last answer, %1 cited: %2</source>
        <translation>Letzte Antwort, %1 zitiert: %2</translation>
    </message>
    <message>
        <source>unresolved link</source>
        <translation>nicht aufgelöster Link</translation>
    </message>
    <message>
        <source>Restore edge</source>
        <translation>Kante wiederherstellen</translation>
    </message>
    <message>
        <source>Delete edge</source>
        <translation>Kante löschen</translation>
    </message>
    <message>
        <source>Show its neighbourhood</source>
        <translation>Nachbarschaft zeigen</translation>
    </message>
    <message>
        <source>Start edge from here</source>
        <translation>Kante hier beginnen</translation>
    </message>
    <message>
        <source>Connect to here</source>
        <translation>Hierher verbinden</translation>
    </message>
    <message>
        <source>Pick a source note, a target note and a kind first.</source>
        <translation>Wähle zuerst eine Quell-Notiz, eine Ziel-Notiz und eine Art.</translation>
    </message>
</context>
</TS>
