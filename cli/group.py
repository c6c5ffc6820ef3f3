"""The group that holds the ``lehavre`` commands, apart from the commands themselves (so that
``lehavre --version`` and a command's start need none but their own): a bad option value is said in the
project's words (:class:`PlainWordsGroup`), and each command is made only when it is asked for
(:class:`CommandTable`)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from typing import IO, Any, cast

import typer
from typer.core import TyperArgument, TyperGroup

from cli.console import fit_to_terminal


# -- bad values in the project's words -------------------------------------------------------------
def _number(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _allowed_range(param: Any) -> str:
    """The numbers ``param`` (an option with ``min``/``max``) allows, in words."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        return f"give a number from {_number(low)} to {_number(high)}"
    if low is not None:
        return f"give a number of at least {_number(low)}"
    return f"give a number of at most {_number(high)}"


def plain_words(problem: dict[str, Any], param: Any) -> str:
    """One value check that failed while typer read an option (``problem``: pydantic's error),
    said in the project's words: what was wrong and what is allowed, without the library's prefixes."""
    kind, got = problem.get("type", ""), problem.get("input")
    if kind == "value_error":  # typer's own checks (an enum's choices): its text, without pydantic's prefix
        return str(problem.get("msg", "")).removeprefix("Value error, ")
    if kind in ("int_parsing", "int_from_float"):
        return f"'{got}' is not a whole number"
    if kind == "float_parsing":
        return f"'{got}' is not a number"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        return f"{got} is out of range: {_allowed_range(param)}"
    if kind == "bool_parsing":
        return f"'{got}' is not yes or no (true/false, 1/0)"
    msg = str(problem.get("msg", "")).removeprefix("Value error, ").removeprefix("Input should be ")
    return f"'{got}' is not allowed: it should be {msg}"


def _rephrase(exc: Any) -> None:
    """Say a bad option value's message in the project's words (typer builds it from pydantic's error)."""
    cause = exc.__cause__
    problems = cause.errors() if callable(getattr(cause, "errors", None)) else []
    if problems and hasattr(exc, "message"):
        exc.message = plain_words(problems[0], getattr(exc, "param", None))


def _fitted(show: Callable[..., None]) -> Callable[..., None]:
    """click's ``show`` of a usage error, its lines wrapped between words at the terminal's width."""

    def fitted(file: IO[Any] | None = None) -> None:
        buffer = io.StringIO()
        show(buffer)
        typer.echo(fit_to_terminal(buffer.getvalue().rstrip("\n"), stderr=file is None), file=file, err=file is None)

    return fitted


def plain_arguments(command: Any) -> Any:
    """``command`` with its arguments shown as :class:`PlainArgument` shows them."""
    for param in command.params:
        if type(param) is TyperArgument:
            param.__class__ = PlainArgument  # the same argument, shown in plain words
    return command


class PlainArgument(TyperArgument):
    """A command's argument shown as a person reads a usage line: its name (``NAME|PATH``), in brackets
    when it may be left out, ``...`` when it takes several; without typer's braces or Python types
    (``{RULES...}...``, ``RULES <str>``)."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return name if self.required else f"[{name}]"

    def display_type(self, ctx: Any) -> str:
        """A choice's words (``<inland|base>``) when no metavar names them; never a Python type."""
        if self.metavar is None and self.type_descriptor.is_choice:
            return super().display_type(ctx)
        return ""


class PlainWordsGroup(TyperGroup):
    """The ``lehavre`` group: a command's usage error names what was wrong and what is allowed in the
    project's words (not pydantic's "Value error," or "Input should be"), and in a terminal it is wrapped
    between words at its width (click prints it on one line, which a terminal breaks mid-word).  Its
    commands' arguments are shown as :class:`PlainArgument` shows them (:func:`plain_arguments`)."""

    def invoke(self, ctx: Any) -> Any:
        # click's ClickException (what click shows and exits with), whether typer vendors click or depends on it
        click_exception = cast(
            type[Exception], next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
        )
        try:
            return super().invoke(ctx)
        except click_exception as exc:
            _rephrase(exc)
            setattr(exc, "show", _fitted(getattr(exc, "show")))  # noqa: B009, B010  (this instance only)
            raise


class CommandTable(MutableMapping[str, Any]):
    """A group's commands by name, in the order ``names`` gives (the order ``--help`` lists them): each
    is made by ``make`` the first time it is looked up, so running one command makes that one only.
    ``made``: the commands already made (typer's, from the command modules imported before the group
    was built); each must be one of ``names``."""

    def __init__(self, names: Sequence[str], made: Mapping[str, Any], make: Callable[[str], Any]) -> None:
        unknown = sorted(set(made) - set(names))
        if unknown:
            raise ValueError(f"commands {unknown} are not in the table of commands ({', '.join(names)})")
        self._names = list(names)
        self._made = {name: plain_arguments(command) for name, command in made.items()}
        self._make = make

    def __getitem__(self, name: str) -> Any:
        if name not in self._made:
            if name not in self._names:
                raise KeyError(name)
            self._made[name] = plain_arguments(self._make(name))
        return self._made[name]

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._names:
            self._names.append(name)
        self._made[name] = plain_arguments(command)

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._made.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names
