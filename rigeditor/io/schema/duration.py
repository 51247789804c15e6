"""The file's ``exact_end`` (timeline and animations): where an animation whose last
key falls between frames really ends (``model.data.duration``)."""
from __future__ import annotations

from pydantic_core import PydanticCustomError


def check_exact_end(model):
    """A model's exact_end, when given, lies strictly between end - 1 and end."""
    value = model.exact_end
    if value is not None and not (model.end - 1 < value < model.end and value > model.start):
        raise PydanticCustomError("exact_end", "{message}", {
            "message": f"exact_end: must lie strictly between end - 1 ({model.end - 1}) and end ({model.end}), "
                       f"after start: the frame of a last key between frames, got {value!r}"})
    return model


def exact_end_data(span) -> dict:
    """{"exact_end": frame} for a Timeline or Animation that ends between frames, else {}."""
    from rigeditor.model.data.duration import exact_end

    value = exact_end(span)
    return {} if value is None else {"exact_end": value}
