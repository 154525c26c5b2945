"""Ratings: Bradley-Terry and Plackett-Luce fits on the Elo scale, error bars,
LOS, standings, comparison of two entrants, SPRT, and readers/writers for
results files.

Pure computation on :class:`GameRecord` values; the only I/O is in the readers.
"""

from ._bootstrap import BootstrapResult as BootstrapResult
from ._bootstrap import ErrorBar as ErrorBar
from ._bootstrap import bootstrap_bradley_terry as bootstrap_bradley_terry
from ._bradley_terry import fit_bradley_terry as fit_bradley_terry
from ._plackett_luce import fit_plackett_luce as fit_plackett_luce
from ._fit import ELO_PER_NAT as ELO_PER_NAT
from ._fit import RatingFit as RatingFit
from ._results import GameRecord as GameRecord
from ._compare import Comparison as Comparison
from ._compare import compare as compare
from ._methods import METHODS as METHODS
from ._methods import RatingMethod as RatingMethod
from ._standings import HeadToHead as HeadToHead
from ._standings import Standings as Standings
from ._standings import StandingsRow as StandingsRow
from ._standings import compute_standings as compute_standings
from ._sprt import SprtDecision as SprtDecision
from ._sprt import SprtResult as SprtResult
from ._sprt import sprt as sprt
from ._sprt import sprt_from_counts as sprt_from_counts
from ._sprt_stop import SprtStop as SprtStop
from ._sprt_stop import SprtTally as SprtTally
from ._sprt_watch import SprtWatch as SprtWatch
from ._sprt_watch import WatchTally as WatchTally
from ._sprt_watch import sprt_watch_from_table as sprt_watch_from_table
from ._readers import ResultsFileError as ResultsFileError
from ._readers import read_jsonl as read_jsonl
from ._readers import read_pgn as read_pgn
from ._readers import write_pgn as write_pgn
from ._adaptive import Goal as Goal
from ._adaptive import Verdict as Verdict
from ._adaptive import judge as judge
from ._adaptive import parse_goal as parse_goal
from ._adaptive_round import first_round as first_round
from ._adaptive_round import next_round as next_round
from ._baseline import Baseline as Baseline
from ._baseline import BaselineError as BaselineError
from ._baseline import NoBaseline as NoBaseline
from ._baseline import game_baseline as game_baseline
from ._bootstrap import MAX_BOOT as MAX_BOOT
from ._bootstrap import check_n_boot as check_n_boot
from ._bradley_terry import solve_bradley_terry as solve_bradley_terry
from ._chance import DEFAULT_SAMPLES as DEFAULT_SAMPLES
from ._chance import game_luck as game_luck
from ._corrected import corrected_points as corrected_points
from ._corrected import corrected_table as corrected_table
from ._encode import from_columns as from_columns
from ._encode import pair_scores as pair_scores
from ._intervals import information as information
from ._load import load_results as load_results
from ._plackett_luce import plackett_luce_objective as plackett_luce_objective
from ._plackett_luce import solve_plackett_luce as solve_plackett_luce
from ._sprt import check_parameters as check_parameters
