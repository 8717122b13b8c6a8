"""Words that say nothing about what a note is about: German and English function words,
auxiliaries and question words ("warum", "wie viel", "which", "how many"). They are kept out
of the lexical query (BM25 would reward a chunk for "wurde") and out of the reasons."""

from __future__ import annotations


def _words(text: str) -> list[str]:
    return text.split()


GERMAN = _words(
    """
aber alle allem allen aller alles als also am an ander andere anderem anderen anderer
anderes anderm andern anderr anders auch auf aus bei beim bin bis bist bitte da dabei
dadurch dafür dagegen daher dahin damals damit danach dann daran darauf daraus darf darfst
darin darum darunter das dass daß dasselbe dazu dein deine deinem deinen deiner deines dem
demselben den denen denn denselben der deren derer derselbe derselben des deshalb desselben
dessen dich die dies diese dieselbe dieselben diesem diesen dieser dieses dir doch dort du
durch ebenso eher ein eine einem einen einer eines einige einigem einigen einiger einiges
einmal er es etwa etwas euch euer eure eurem euren eurer eures für gab gar gegen gewesen
gibt ging gut hab habe haben habt hast hat hatte hatten hätte hätten heißt hier hin hinter
ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im immer in indem ins ist ja je jede
jedem jeden jeder jedes jedoch jene jenem jenen jener jenes jetzt kann kannst kein keine
keinem keinen keiner keines können könnte könnten konnte konnten machen macht mag man manche
manchem manchen mancher manches mehr mein meine meinem meinen meiner meines mich mir mit
muss musst müssen musste mussten nach nachdem nein nicht nichts noch nun nur ob oder ohne
schon sehr sein seine seinem seinen seiner seines seit selbst sich sie sind so solche
solchem solchen solcher solches soll sollen sollte sollten sondern sonst sowie über um und
uns unse unsem unsen unser unsere unserem unseren unserer unseres unter viel viele vom von
vor während war waren warst was weg weil weiter welche welchem welchen welcher welches wem
wen wenn wer werde werden werdet weshalb wessen wie wieder wieso will wir wird wirst wo
wobei wodurch wofür wogegen woher wohin womit wonach woran worauf woraus worin worum wozu
wollen wollte wollten würde würden wurde wurden warum zu zum zur zwar zwischen gibt's wann
weswegen wieviel wieviele inwiefern wofür eigentlich genau bzw etc z.b
"""
)

ENGLISH = _words(
    """
a about above after again against all am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't
doing don't down during each few for from further had hadn't has hasn't have haven't having
he her here hers herself him himself his how i if in into is isn't it it's its itself just
let's me might more most must mustn't my myself no nor not now of off on once only or other
ought our ours ourselves out over own same shall she should shouldn't so some such than that
that's the their theirs them themselves then there there's these they this those through to
too under until up upon us very was wasn't we were weren't what what's when where which
while who whom whose why will with won't would wouldn't you your yours yourself yourselves
also many much tell explain describe please
"""
)

STOP_WORDS: frozenset[str] = frozenset(w.casefold() for w in GERMAN + ENGLISH)


def is_stop_word(word: str) -> bool:
    return word.casefold().strip(".,;:!?()[]\"'") in STOP_WORDS
