"""Ratings: Bradley-Terry and Plackett-Luce fits on the Elo scale, bootstrap
error bars, LOS, standings, SPRT, and readers/writers for results files.

Pure computation on :class:`GameRecord` values; the only I/O is in the readers.
"""

from ._bradley_terry import fit_bradley_terry as fit_bradley_terry
from ._plackett_luce import fit_plackett_luce as fit_plackett_luce
from ._fit import ELO_PER_NAT as ELO_PER_NAT
from ._fit import RatingFit as RatingFit
from ._results import GameRecord as GameRecord
