"""The formulas of Moodle's calculated questions, evaluated safely (for calculatedsimple).

A formula is what qtype_calculated_find_formula_errors() accepts (moodle/moodle
question/type/calculated/questiontype.php): numbers, `{name}` wildcards, `+ - * / %`,
parentheses and PHP's maths functions (`sqrt`, `pow`, `pi()`, `log`, `round` ...). It is
parsed with Python's `ast` and only that subset is evaluated, in floats (so `9**9**9` is an
overflow, never a hang); anything else is a `FormulaError`.
"""

from __future__ import annotations

import ast
import math
import re

_FUNCTIONS = {
    "abs": abs, "acos": math.acos, "acosh": math.acosh, "asin": math.asin, "asinh": math.asinh, "atan": math.atan,
    "atanh": math.atanh, "ceil": math.ceil, "cos": math.cos, "cosh": math.cosh, "deg2rad": math.radians,
    "exp": math.exp, "expm1": math.expm1, "floor": math.floor, "log10": math.log10, "log1p": math.log1p,
    "rad2deg": math.degrees, "sin": math.sin, "sinh": math.sinh, "sqrt": math.sqrt, "tan": math.tan,
    "tanh": math.tanh, "atan2": math.atan2, "fmod": math.fmod, "pow": math.pow, "pi": lambda: math.pi,
    "log": lambda x, base=math.e: math.log(x, base), "round": lambda x, digits=0: round(x, int(digits)),
    "min": min, "max": max,
}
_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.Div: lambda a, b: a / b, ast.Mod: math.fmod, ast.Pow: math.pow}
_WILDCARD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_LIMIT = 1000
"""Characters a formula may have: Moodle's own are a line."""


class FormulaError(ValueError):
    """A formula lmsexport cannot evaluate: outside the subset, an unknown wildcard, no finite number."""


def evaluate(formula: str, values: dict[str, float]) -> float:
    """The value of `formula` with each `{name}` replaced by `values[name]`."""
    missing = sorted(set(_WILDCARD.findall(formula)) - set(values))
    if missing:
        raise FormulaError(f"the wildcard {{{missing[0]}}} has no value in the question's datasets")
    if len(formula) > _LIMIT:
        raise FormulaError("the formula is too long")
    expression = _WILDCARD.sub(lambda m: f"({values[m[1]]!r})", formula)
    try:
        result = _value(ast.parse(expression.strip(), mode="eval").body)
    except (SyntaxError, RecursionError):
        raise FormulaError(f"{formula!r} is not a formula lmsexport can evaluate") from None
    except (ArithmeticError, ValueError, TypeError) as exc:
        raise FormulaError(f"{formula!r} has no value ({exc})") from None
    if not math.isfinite(result):
        raise FormulaError(f"{formula!r} is not a finite number")
    return result


def substitute(text: str, values: dict[str, float]) -> str:
    """A question text with `{name}` shown as its value and `{=formula}` as the formula's value."""
    def calculated(match: re.Match) -> str:
        try:
            return _shown(evaluate(match[1], values))
        except FormulaError:
            return match[0]

    text = re.sub(r"\{=([^{}]*(?:\{[A-Za-z_][A-Za-z0-9_]*\}[^{}]*)*)\}", calculated, text)
    return _WILDCARD.sub(lambda m: _shown(values[m[1]]) if m[1] in values else m[0], text)


def _shown(value: float) -> str:
    return repr(int(value)) if value == int(value) and abs(value) < 1e15 else f"{value:.10g}"


def _value(node: ast.AST) -> float:
    """The value of one node of the subset."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _value(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return float(_OPERATORS[type(node.op)](_value(node.left), _value(node.right)))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
            and not node.keywords):
        return float(_FUNCTIONS[node.func.id](*(_value(arg) for arg in node.args)))
    raise SyntaxError("outside the formula subset")
