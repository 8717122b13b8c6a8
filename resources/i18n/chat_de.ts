<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="96"/>
        <source>Ask a question about your notes.</source>
        <translation>Stelle eine Frage zu deinen Notizen.</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="113"/>
        <source>Your question (Ctrl+Enter sends)</source>
        <translation>Deine Frage (Strg+Eingabe sendet)</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="117"/>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="118"/>
        <source>Send the question (Ctrl+Enter)</source>
        <translation>Frage senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="120"/>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="121"/>
        <source>Stop the answer; what arrived stays</source>
        <translation>Antwort anhalten; was schon da ist, bleibt</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="175"/>
        <source>Waiting for the vault…</source>
        <translation>Warte auf den Vault …</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="189"/>
        <source>Stopping…</source>
        <translation>Halte an …</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="199"/>
        <source>Loading the chat model…</source>
        <translation>Lade das Chat-Modell …</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="201"/>
        <source>Searching the notes and thinking…</source>
        <translation>Durchsuche die Notizen und denke nach …</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="208"/>
        <source>Answering…</source>
        <translation>Antworte …</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="248"/>
        <source>You</source>
        <translation>Du</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="257"/>
        <source>Mindnet</source>
        <translation>Mindnet</translation>
    </message>
    <message numerus="yes">
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="267"/>
        <source>Sources (%n)</source>
        <translation>
            <numerusform>Quelle (%n)</numerusform>
            <numerusform>Quellen (%n)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="270"/>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="286"/>
        <source>Error: {message}</source>
        <translation>Fehler: {message}</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="352"/>
        <source>Could not open Obsidian ({url}).</source>
        <translation>Obsidian ließ sich nicht öffnen ({url}).</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_panel.py" line="385"/>
        <source>The feedback could not be saved.</source>
        <translation>Die Bewertung konnte nicht gespeichert werden.</translation>
    </message>
</context>
<context>
    <name>ChatText</name>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="24"/>
        <source>semantic similarity</source>
        <translation>semantische Ähnlichkeit</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="25"/>
        <source>edges</source>
        <translation>Kanten</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="26"/>
        <source>centrality</source>
        <translation>Zentralität</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="27"/>
        <source>type weight</source>
        <translation>Typgewicht</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="28"/>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="36"/>
        <source>keywords</source>
        <translation>Schlüsselwörter</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="37"/>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="38"/>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="46"/>
        <source>Intent {intent}, matched keywords: {words}</source>
        <translation>Absicht {intent}, gefundene Schlüsselwörter: {words}</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="50"/>
        <source>Intent {intent}, chosen by the chat model</source>
        <translation>Absicht {intent}, vom Chat-Modell gewählt</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="53"/>
        <source>Intent {intent} (default: no keyword matched)</source>
        <translation>Absicht {intent} (Standard: kein Schlüsselwort gefunden)</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="66"/>
        <source>Injected for a decision</source>
        <translation>Für eine Entscheidung ergänzt</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="70"/>
        <source>Reasons</source>
        <translation>Gründe</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="76"/>
        <source>Term</source>
        <translation>Term</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="77"/>
        <source>Raw</source>
        <translation>Rohwert</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="78"/>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="79"/>
        <source>Contribution</source>
        <translation>Beitrag</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_text.py" line="91"/>
        <source>Score</source>
        <translation>Score</translation>
    </message>
</context>
<context>
    <name>FeedbackButtons</name>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="40"/>
        <source>Helpful (thumbs up)</source>
        <translation>Hilfreich (Daumen hoch)</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="41"/>
        <source>Not helpful (thumbs down)</source>
        <translation>Nicht hilfreich (Daumen runter)</translation>
    </message>
</context>
<context>
    <name>SourceRow</name>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="99"/>
        <source>injected</source>
        <translation>ergänzt</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="100"/>
        <source>Added for a decision: a value, principle or goal</source>
        <translation>Für eine Entscheidung ergänzt: ein Wert, Prinzip oder Ziel</translation>
    </message>
</context>
<context>
    <name>SourcesPane</name>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="137"/>
        <source>This answer:</source>
        <translation>Diese Antwort:</translation>
    </message>
    <message>
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="143"/>
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="167"/>
        <source>Sources</source>
        <translation>Quellen</translation>
    </message>
    <message numerus="yes">
        <location filename="../../mindnet_desktop/ui/chat_sources.py" line="171"/>
        <source>Sources (%n)</source>
        <translation>
            <numerusform>Quelle (%n)</numerusform>
            <numerusform>Quellen (%n)</numerusform>
        </translation>
    </message>
</context>
</TS>
