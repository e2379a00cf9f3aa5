"""The words of the self-check and of the grader's feedback that code reads back.

Every message a student reads is made in the language in use (:mod:`coursekit.i18n`:
``ck.set_language`` in a notebook, :func:`~coursekit.i18n.speaking` in the grader), from
a template marked ``_("...")`` and formatted after it is translated. Code that decides from a
message (a question passed, not answered yet) asks here, in the same language, rather than
comparing with English words.

>>> passed("q1"), is_passed("q1", "q1: passed"), unanswered("q1", "q1: not answered yet: ...")
('q1: passed', True, True)
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, gettext, key_text

_ = gettext  # marked texts are found by this name (tools/translate.py)

#: The state words of ``progress()`` (translated where printed).
STATES = (
    N_("passed"),
    N_("not answered"),
    N_("not right yet"),
    N_("recorded"),
    N_("format to fix"),
    N_("attempts used up"),
)


def passed(qid: str) -> str:
    """What a right answer to ``qid`` is told: ``"q1: passed"``."""
    return _("{qid}: passed").format(qid=qid)


def is_passed(qid: str, message: str) -> bool:
    """Whether ``message`` says that the answer to ``qid`` passed."""
    return message == passed(qid)


def unanswered(qid: str, message: str) -> bool:
    """Whether ``message`` says that ``qid`` is not answered yet (every such message starts
    with these words: ``tests/test_i18n_feedback.py`` checks the French keeps them)."""
    return message.startswith(_("{qid}: not answered yet").format(qid=qid))


def recorded(qid: str, message: str) -> bool:
    """Whether ``message`` says that the answer to ``qid`` was recorded (own data)."""
    return message.startswith(_("{qid}: recorded").format(qid=qid))


def hint_of(text: str) -> str:
    """`` (hint: ...)`` after a message, with the key's hint in the language in use; '' for
    no hint."""
    return " " + _("(hint: {hint})").format(hint=key_text(text)) if text else ""


def about(qid: str, text: str) -> str:
    """``"q1: <text>"`` (a text already in the language in use) as the language writes it."""
    return _("{qid}: {text}").format(qid=qid, text=text)


class Fixed(str):
    """One of our own fixed texts (why a submission was not graded, a note on it): this string
    is its English, what the lecturer's files keep (grades.csv's error column, the gradebook):
    ``template`` formatted with ``fields``. :meth:`said` is what a student's feedback says:
    ``shown`` (default: ``template``; a text marked ``N_``) translated into the language in use,
    then formatted with ``fields`` (which stay as they are: ids, file names, numbers).

    >>> from coursekit.i18n import N_, speaking
    >>> why = Fixed(N_("grader error: the grade of this submission is over {size} bytes"), size=9)
    >>> why
    'grader error: the grade of this submission is over 9 bytes'
    >>> with speaking("fr"):
    ...     why.said()
    'erreur du correcteur : la note de ce rendu dépasse 9 octets'
    """

    template: str
    shown: str
    fields: dict[str, Any]

    def __new__(cls, template: str, /, shown: str = "", **fields: Any) -> Fixed:
        made = super().__new__(cls, template.format(**fields) if fields else template)
        made.template, made.shown, made.fields = template, shown or template, fields
        return made

    def said(self) -> str:
        """The text in the language in use."""
        return _(self.shown).format(**self.fields) if self.fields else _(self.shown)


def said(text: str) -> str:
    """``text`` as a student's feedback says it: a :class:`Fixed` text in the language in use,
    any other text (a notebook's error, already a translation) as it is."""
    return text.said() if isinstance(text, Fixed) else text
