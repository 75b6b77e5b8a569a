# Types of the names pancli/__init__.py loads on first use (from pancli.api).
from pancli.api import MeldCheck as MeldCheck
from pancli.api import PanError as PanError
from pancli.api import analyze_hand as analyze_hand
from pancli.api import check_meld as check_meld
from pancli.api import load_rules as load_rules
from pancli.api import meld_value as meld_value
from pancli.api import parse_records as parse_records
from pancli.api import read_records as read_records
from pancli.api import referee_hand as referee_hand
from pancli.model.results import HandResult as HandResult
from pancli.pagruc.referee import PagrucHandResult as PagrucHandResult

__version__: str
API: tuple[str, ...]
__all__: list[str]
