"""The one error type of the edits: an edit that cannot be made."""


class EditError(ValueError):
    """An edit that cannot be made; the message is written for the user (it names the
    item and the value, and says what would be accepted). A ValueError, so code that
    catches bad values catches it too."""
