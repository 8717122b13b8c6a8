<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ChatPanel</name>
    <message>
        <source>Ask a question about your notes.</source>
        <translation>Stelle eine Frage zu deinen Notizen.</translation>
    </message>
    <message>
        <source>Your question (Ctrl+Enter sends)</source>
        <translation>Deine Frage (Strg+Eingabe sendet)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Send the question (Ctrl+Enter)</source>
        <translation>Frage senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop the answer; what arrived stays</source>
        <translation>Antwort anhalten; was schon da ist, bleibt</translation>
    </message>
    <message>
        <source>The vault is not open.</source>
        <translation>Der Vault ist nicht geöffnet.</translation>
    </message>
    <message>
        <source>Waiting for the vault…</source>
        <translation>Warte auf den Vault …</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Halte an …</translation>
    </message>
    <message>
        <source>Loading the chat model…</source>
        <translation>Lade das Chat-Modell …</translation>
    </message>
    <message>
        <source>Searching the notes and thinking…</source>
        <translation>Durchsuche die Notizen und denke nach …</translation>
    </message>
    <message>
        <source>Writing…</source>
        <translation>Schreibe …</translation>
    </message>
    <message>
        <source>Obsidian did not open (%1): shown here.</source>
        <translation>Obsidian ließ sich nicht öffnen (%1): hier gezeigt.</translation>
    </message>
    <message>
        <source>Reading 1 source…</source>
        <translation>Lese 1 Quelle …</translation>
    </message>
    <message>
        <source>Reading %1 sources…</source>
        <translation>Lese %1 Quellen …</translation>
    </message>
    <message>
        <source>Stopped after %1 s.</source>
        <translation>Nach %1 s angehalten.</translation>
    </message>
    <message>
        <source>Answered in %1 s from 1 source.</source>
        <translation>Antwort in %1 s aus 1 Quelle.</translation>
    </message>
    <message>
        <source>Answered in %1 s.</source>
        <translation>Antwort in %1 s.</translation>
    </message>
    <message>
        <source>Answered in %1 s from %2 sources.</source>
        <translation>Antwort in %1 s aus %2 Quellen.</translation>
    </message>
    <message>
        <source>Closest in your notes</source>
        <translation>Am nächsten in deinen Notizen</translation>
    </message>
    <message>
        <source>From your notes</source>
        <translation>Aus deinen Notizen</translation>
    </message>
    <message>
        <source>You</source>
        <translation>Du</translation>
    </message>
    <message>
        <source>Mindnet</source>
        <translation>Mindnet</translation>
    </message>
    <message numerus="yes">
        <source>Sources (%n)</source>
        <translation>
            <numerusform>Quelle (%n)</numerusform>
            <numerusform>Quellen (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>The feedback could not be saved.</source>
        <translation>Die Bewertung konnte nicht gespeichert werden.</translation>
    </message>
</context>
<context>
    <name>ChatText</name>
    <message>
        <source>keywords</source>
        <translation>Schlüsselwörter</translation>
    </message>
    <message>
        <source>examples</source>
        <translation>Beispiele</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Intent %1, matched keywords: %2</source>
        <translation>Absicht %1, gefundene Schlüsselwörter: %2</translation>
    </message>
    <message>
        <source>Intent %1, chosen by the chat model</source>
        <translation>Absicht %1, vom Chat-Modell gewählt</translation>
    </message>
    <message>
        <source>Intent %1, closest to the example questions of that intent</source>
        <translation>Absicht %1, am nächsten an den Beispielfragen dieser Absicht</translation>
    </message>
    <message>
        <source>Intent %1 (default: neither keywords nor examples decided)</source>
        <translation>Absicht %1 (Standard: weder Schlüsselwörter noch Beispiele haben entschieden)</translation>
    </message>
    <message>
        <source>Injected for a decision</source>
        <translation>Für eine Entscheidung ergänzt</translation>
    </message>
    <message>
        <source>Reasons</source>
        <translation>Gründe</translation>
    </message>
    <message>
        <source>Term</source>
        <translation>Term</translation>
    </message>
    <message>
        <source>Raw</source>
        <translation>Rohwert</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Contribution</source>
        <translation>Beitrag</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>What the answer read of it</source>
        <translation>Was die Antwort davon gelesen hat</translation>
    </message>
    <message>
        <source>Supports the answer&apos;s sentence</source>
        <translation>Belegt den Satz der Antwort</translation>
    </message>
    <message>
        <source>Cited [%1] instead of %2: that source does not say it.</source>
        <translation>[%1] statt %2 zitiert: jene Quelle sagt das nicht.</translation>
    </message>
    <message>
        <source>Check this: source [%1] may not say “%2”.</source>
        <translation>Bitte prüfen: Quelle [%1] sagt womöglich nicht „%2“.</translation>
    </message>
    <message>
        <source>Not in your notes: %1 is in none of the sources; the model may have made it up.</source>
        <translation>Nicht in deinen Notizen: %1 steht in keiner der Quellen; womöglich hat das Modell es erfunden.</translation>
    </message>
    <message>
        <source>Not found in your notes: “%1”.</source>
        <translation>Nicht in deinen Notizen gefunden: „%1“.</translation>
    </message>
    <message>
        <source>Cited [%1] instead of %2: that source says “%3”.</source>
        <translation>[%1] statt %2 zitiert: diese Quelle sagt „%3“.</translation>
    </message>
    <message>
        <source>A check found that your notes do not state the model&apos;s answer, so it was withheld: “%1”</source>
        <translation>Eine Prüfung ergab, dass deine Notizen die Antwort des Modells nicht enthalten; sie wurde zurückgehalten: „%1“</translation>
    </message>
    <message>
        <source>Not found in your notes</source>
        <translation>Nicht in deinen Notizen gefunden</translation>
    </message>
    <message>
        <source>None of the sources says this: the model may have added it. Check it before you rely on it.</source>
        <translation>Keine der Quellen sagt das: Das Modell hat es womöglich hinzugefügt. Prüfe es, bevor du dich darauf verlässt.</translation>
    </message>
</context>
<context>
    <name>FeedbackButtons</name>
    <message>
        <source>Helpful (thumbs up)</source>
        <translation>Hilfreich (Daumen hoch)</translation>
    </message>
    <message>
        <source>Not helpful (thumbs down)</source>
        <translation>Nicht hilfreich (Daumen runter)</translation>
    </message>
</context>
<context>
    <name>SourceRow</name>
    <message>
        <source>injected</source>
        <translation>ergänzt</translation>
    </message>
    <message>
        <source>Added for a decision: a value, principle or goal</source>
        <translation>Für eine Entscheidung ergänzt: ein Wert, Prinzip oder Ziel</translation>
    </message>
    <message>
        <source>Show in the app</source>
        <translation>In der App zeigen</translation>
    </message>
    <message>
        <source>Open in Obsidian</source>
        <translation>In Obsidian öffnen</translation>
    </message>
</context>
<context>
    <name>SourcesPane</name>
    <message>
        <source>This answer:</source>
        <translation>Diese Antwort:</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Quellen</translation>
    </message>
    <message numerus="yes">
        <source>Closest notes (%n)</source>
        <translation>
            <numerusform>Ähnlichste Notiz (%n)</numerusform>
            <numerusform>Ähnlichste Notizen (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sources (%n)</source>
        <translation>
            <numerusform>Quelle (%n)</numerusform>
            <numerusform>Quellen (%n)</numerusform>
        </translation>
    </message>
</context>
</TS>
