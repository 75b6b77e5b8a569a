"""pan: a rules referee and hand analyzer for Panguingue and PAGRUC.

``pancli.__version__`` is the one place the version is written (``pan --version`` and the
package metadata read it). The Python API (:mod:`pancli.api`, docs/api.md) is reachable from
here: ``pancli.check_meld``, ``pancli.meld_value``, ``pancli.load_rules``, ``pancli.read_records``,
``pancli.parse_records``, ``pancli.referee_hand``, ``pancli.analyze_hand``, ``pancli.MeldCheck``,
``pancli.PanError``, and the results of ``referee_hand``, ``pancli.HandResult`` and
``pancli.PagrucHandResult``. They are loaded on first use (module ``__getattr__``), so ``import
pancli`` and ``pan --help`` stay light; ``__init__.pyi`` gives type checkers their types.

>>> import pancli
>>> pancli.check_meld("5s 5s 5s").value
4
"""

__version__ = "0.1.0"

API = (
    "HandResult",
    "MeldCheck",
    "PagrucHandResult",
    "PanError",
    "analyze_hand",
    "check_meld",
    "load_rules",
    "meld_value",
    "parse_records",
    "read_records",
    "referee_hand",
)
"""The names of the public API, all from :mod:`pancli.api`."""

__all__ = ["__version__", *API]


def __getattr__(name: str) -> object:  # not typing.Any: pan loads typing after it turns the collector off
    if name in API:
        import importlib  # start-up: import pancli does without it

        return getattr(importlib.import_module("pancli.api"), name)  # (sys.modules keeps the module)
    raise AttributeError(f"module 'pancli' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *API})
