"""One seed derivation (core/seeds.py): every seed in the product is derived by one function from a parent
seed and a label, and the seeds stored playtest runs rely on keep their values."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core.games import game_spec
from core.lab.balance.search import check_seed
from core.lab.longrun import RunPlan, agent_seed, setup_seed
from core.lab.playtest import game_seed
from core.seeds import GAME, SEAT, derive_seed
from core.table import AGENT, Seat, Table, person_seats, seat_agent

ROOT = Path(__file__).resolve().parents[2]
#: the product's packages (the benchmarks and tests are not the product)
PRODUCT = ("core", "cli", "base_game", "inland_port")
#: the one function allowed to derive seeds
THE_ONE = ("core/seeds.py", "derive_seed")


def test_the_playtest_seeds_keep_their_values() -> None:
    """The games and agents of stored playtest runs are reproduced by these values (written by the
    derivation before it moved to core/seeds.py)."""
    assert game_seed(3, 7) == derive_seed(3, GAME, 7) == 553693065588750525
    assert game_seed(2026, 0) == 1069133863785375363
    assert derive_seed(game_seed(3, 7), SEAT, 0) == 522588454720564851
    assert derive_seed(game_seed(3, 7), SEAT, 1) == 429105328795433354
    assert derive_seed(5, SEAT, 3) == 1033862379828521715
    assert check_seed(11) == 578414038123600812
    assert setup_seed(
        RunPlan(name="x", group="g", question="q", rules="inland", agents=("random", "random"), games=2, seed=5), 3
    ) == (522896908816769663)
    assert agent_seed(77, 1) == 369634244965130756


def test_seeds_differ_by_label_parent_and_index() -> None:
    seeds = {derive_seed(p, label, i) for p in (0, 1) for label in (GAME, SEAT) for i in (0, 1)}
    assert len(seeds) == 8
    assert all(0 <= s < 2**60 for s in seeds)


def test_a_seat_agent_is_the_tables() -> None:
    """The table makes a seat's agent with the seat's seed, wherever it is asked for."""
    spec = game_spec("inland")
    table = Table.new(spec, None, 7, [Seat("a", AGENT, "ai:easy"), Seat("b", AGENT, "ai:easy")], record=False)
    assert [table.agent_for(s).seed for s in (0, 1)] == [seat_agent(spec, 7, s, "ai:easy").seed for s in (0, 1)]  # type: ignore[attr-defined]
    assert table.agent_for(1).seed == derive_seed(7, SEAT, 1)  # type: ignore[attr-defined]


def test_the_people_s_seats_are_drawn_once() -> None:
    drawn = person_seats(7, 5, 2)
    assert drawn == person_seats(7, 5, 2) == sorted(drawn) and len(set(drawn)) == 2
    assert {person_seats(s, 2, 1)[0] for s in range(20)} == {0, 1}


# ---------------------------------------------------------------------------
# No other derivation: the tree walked
# ---------------------------------------------------------------------------


def _is_seed_name(node: ast.AST) -> bool:
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return "seed" in name.lower()


def _names_in(node: ast.AST) -> list[ast.AST]:
    """The names and attributes an expression computes with: not inside the calls it makes (``len(seeds)``
    is no seed), nor the texts, lists and keys it builds (``f"seed {seed}"``, ``[seed, games]``)."""
    out: list[ast.AST] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Call | ast.JoinedStr | ast.List | ast.Tuple | ast.Dict | ast.Set | ast.Subscript):
            continue
        if isinstance(n, ast.Name | ast.Attribute):
            out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _call_name(call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Attribute):
        base = f.value.id if isinstance(f.value, ast.Name) else ""
        return f"{base}.{f.attr}" if base else f.attr
    return f.id if isinstance(f, ast.Name) else ""


def _formula(node: ast.AST) -> bool:
    """An expression that computes a value (arithmetic, a formatted string, ...) rather than naming one."""
    if isinstance(node, ast.Name | ast.Attribute | ast.Constant):
        return False
    if isinstance(node, ast.Call):
        return _call_name(node) != "derive_seed"
    return True


def _offset(node: ast.AST) -> bool:
    """Arithmetic that shifts or scrambles a number (``seat_seed(seed, 100 + ply)``), not one that names a group of
    them (``index // 2``: the pair of games)."""
    return isinstance(node, ast.BinOp) and not isinstance(node.op, ast.FloorDiv)


def _arithmetic_on_seed(node: ast.AST, about_seeds: bool) -> bool:
    if isinstance(node, ast.AugAssign):
        return _is_seed_name(node.target)
    return isinstance(node, ast.BinOp) and (about_seeds or any(_is_seed_name(n) for n in _names_in(node)))


def seed_derivations(tree: ast.AST, function_name: str) -> list[tuple[int, str]]:
    """Where ``tree`` (one function, or a module's top level) derives a seed: arithmetic on a seed,
    ``hashlib`` in a function about seeds or on a seed, ``random.Random`` of a formula, a seed function
    given an offset."""
    about_seeds = "seed" in function_name.lower()
    found = []
    for node in ast.walk(tree):
        if _arithmetic_on_seed(node, about_seeds):
            found.append((getattr(node, "lineno", 0), "arithmetic on a seed"))
        elif isinstance(node, ast.JoinedStr) and about_seeds:
            found.append((node.lineno, "a seed made from text"))
        elif isinstance(node, ast.Call):
            name = _call_name(node)
            args = [*node.args, *(k.value for k in node.keywords)]
            if name.startswith("hashlib.") and (
                about_seeds or any(_is_seed_name(n) for a in args for n in _names_in(a))
            ):
                found.append((node.lineno, "hashlib on a seed"))
            elif name in ("random.Random", "Random") and args and _formula(args[0]):
                found.append((node.lineno, "random.Random of a formula"))
            elif "seed" in name.lower() and any(_offset(n) for a in args for n in ast.walk(a)):
                found.append((node.lineno, "a seed function given an offset"))
    return found


def _functions(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """Every function of a module (methods and nested ones too, each on its own), and its top level."""
    funcs: list[tuple[str, ast.AST]] = []
    top = ast.Module(body=[], type_ignores=[])
    for stmt in tree.body:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            top.body.append(stmt)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = [n for n in node.body if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
            funcs.append((node.name, ast.Module(body=inner, type_ignores=[])))
    return [("<module>", top), *funcs]


def product_derivations(root: Path) -> list[str]:
    found = []
    for package in PRODUCT:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            for name, body in _functions(ast.parse(path.read_text(encoding="utf-8"))):
                if (rel, name) == THE_ONE:
                    continue
                found += [f"{rel}:{line} {name}: {what}" for line, what in seed_derivations(body, name)]
    return found


def test_exactly_one_function_derives_seeds() -> None:
    """Every seed is derived by core.seeds.derive_seed: no other function of the product computes one
    (arithmetic on a seed, hashlib on seeds, ``random.Random`` of a formula)."""
    assert product_derivations(ROOT) == []


@pytest.mark.parametrize(
    "source",
    [
        "def f(seed, i):\n    return g(seed + i // 2)",
        "def f(self, state):\n    return (self.seed * 1_000_003 + len(state.history) * 7919) & 0x7FFFFFFF",
        "def f(seed):\n    return random.Random(f'seat-{seed}').randrange(2)",
        "def check_seed(seed):\n    return int(hashlib.sha256(f'x:{seed}'.encode()).hexdigest()[:15], 16)",
        "def derive_seed(*parts):\n    text = ':'.join(str(p) for p in parts)\n    return int(hashlib.sha256(text.encode()).hexdigest(), 16)",
        "def hint(self):\n    return make_agent(spec, seat_seed(self.s.seed, 100 + ply))",
        "def f(self, rnd):\n    random.Random(f'{self.s.seed}:{rnd}').shuffle(rest)",
    ],
)
def test_the_walk_finds_the_formulas_it_replaced(source: str) -> None:
    """Each formula the one derivation replaced is found by the walk (so the test above would fail on them)."""
    tree = ast.parse(source)
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    assert seed_derivations(func, func.name)


@pytest.mark.parametrize(
    "source",
    [
        "def f(seed):\n    return random.Random(seed).choice(xs)",
        "def f(self):\n    return random.Random(derive_seed(self.seed, NOISE)).choice(xs)",
        "def f(run_seed, i):\n    return derive_seed(run_seed, GAME, i)",
        "def f(seeds):\n    return len(seeds) * 2",
        "def f(seed):\n    return f'seed {seed}' + '.'",
    ],
)
def test_the_walk_lets_the_one_derivation_be_used(source: str) -> None:
    func = ast.parse(source).body[0]
    assert isinstance(func, ast.FunctionDef)
    assert seed_derivations(func, func.name) == []
