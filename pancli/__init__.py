"""pan: a rules referee and hand analyzer for Panguingue and PAGRUC.

``pancli.__version__`` is the one place the version is written (``pan --version`` and the
package metadata read it).
"""

__version__ = "0.1.0"
