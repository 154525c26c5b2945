"""The shipped map, "caribbean": an approximation of the original Karibik board, fair by construction.

The printed board of Karibik (Antonow & Schliemann, 2004) is not in the rulebook and no
public description of its areas exists, so this map is our own. Its first version placed
areas at real places and balanced the colours by distance sums; self-play showed that a
proxy is not enough (in 4-player heuristic games yellow won 230 of 400, red 6). This map
makes colour fairness structural instead:

- **Symmetry.** The map has 12 symmetries (permutations of the areas that keep every
  border, every area kind and every chest value) forming the rotation group of a
  tetrahedron, A4, and they permute the four hideout colours as A4 does: ``TURN`` cycles
  red -> blue -> green and fixes yellow; ``SWAP`` exchanges red with blue and green with
  yellow. So any colour can be carried to any other (4 players); with 2 players (red,
  blue) ``SWAP`` exchanges the two seats and keeps the unused colours unused; with 3
  players (red, blue, green) ``TURN`` rotates the three seats and fixes the unused yellow.
  Seats have no other asymmetry in the rules (bribes and tie-breaks are simultaneous,
  ships move in ship order), so for every player count every seat has the same chances
  against equal opponents, exactly, not on average. ``tests/engines/karibik/test_board.py``
  checks the two symmetries; ``benchmarks/karibik_fairness.py`` measures it in self-play.
- **How it was built.** Points on a sphere in orbits of the tetrahedral rotation group: the
  4 corner directions of a tetrahedron (4 ports), the 6 edge directions (the 6 start
  areas), and three orbits of 12 (hideouts, ports, open sea), spread by minimising a
  repulsion energy; the 4 face directions are the four land masses. The borders are the
  Delaunay triangulation of those points (the convex hull) without the land masses and
  without three orbits of 12 long borders, so each orbit of borders is kept or dropped
  as a whole and the symmetry holds. One land mass became the outside of the drawing
  (the coasts around the map); the graph was then drawn in the plane without crossings
  (a Tutte embedding, relaxed), every area was named after the real place nearest its
  drawn position (ports after port cities, hideouts after islands, the rest after seas,
  banks and passages), and pulled towards that place as far as it could go without a
  crossing; a few were then moved by hand so that no border passes over another area.
  x and y are drawing coordinates in a 100 x 55 frame (y grows southwards)
  that follow longitude and latitude loosely: west is the Gulf of Mexico, north the
  Bahamas and Cuba, east the Lesser Antilles, south the Spanish Main.
- **What it has.** 46 areas ("about 48"), 84 borders (average degree 3.65, 2 to 6),
  diameter 9; 16 ports, each with its own chest; 12 hideouts, 3 per colour in three
  different regions; 6 start areas; 12 open-sea areas. The 4 hub ports (Havana, Trujillo,
  Port Royal, Bridgetown: one orbit of 4) border 3 hideouts of 3 colours and hold 8000;
  the 12 other ports (one orbit of 12) border one hideout each and hold 5000. **[R]** So
  the chest values are 8000 x4 and 5000 x12 (92,000 in all): a symmetry maps a port to a
  port of the same value only if values are constant on each orbit.

Rows of ``AREAS``: ``(name, kind, extra, region, x, y)`` where ``extra`` is the chest value
of a port, the colour of a hideout, else None. ``EDGES`` are pairs of area names.
``TURN`` and ``SWAP`` map each area name to its image under the two generating symmetries.
"""

from ._board import Board

AREAS = (
    ('Trujillo', 'port', 8000, 'west', 22.0, 38.5),
    ('Havana', 'port', 8000, 'north', 42.0, 7.0),
    ('Port Royal', 'port', 8000, 'south', 49.6, 26.4),
    ('Bridgetown', 'port', 8000, 'east', 91.5, 40.5),
    ('Veracruz', 'port', 5000, 'west', 2.8, 20.1),
    ('Campeche', 'port', 5000, 'west', 18.4, 20.4),
    ('Belize', 'port', 5000, 'west', 25.2, 26.7),
    ('Bluefields', 'port', 5000, 'south', 37.5, 44.1),
    ('Trinidad', 'port', 5000, 'north', 42.7, 15.4),
    ('Nombre de Dios', 'port', 5000, 'south', 49.0, 47.5),
    ('Cap-Francais', 'port', 5000, 'north', 64.6, 18.3),
    ('Maracaibo', 'port', 5000, 'south', 66.0, 54.5),
    ('Willemstad', 'port', 5000, 'south', 70.6, 43.5),
    ('Santo Domingo', 'port', 5000, 'south', 71.9, 25.2),
    ('San Juan', 'port', 5000, 'east', 79.4, 20.3),
    ('Charlotte Amalie', 'port', 5000, 'east', 88.1, 12.9),
    ('Isla del Carmen', 'hideout', 'yellow', 'west', 13.1, 27.6),
    ('Isla Mujeres', 'hideout', 'green', 'west', 22.0, 2.5),
    ('Utila', 'hideout', 'red', 'west', 27.4, 35.6),
    ('Corn Islands', 'hideout', 'blue', 'west', 28.0, 53.5),
    ('Swan Islands', 'hideout', 'green', 'south', 35.2, 27.6),
    ('Dry Tortugas', 'hideout', 'red', 'north', 34.0, 12.5),
    ('Pedro Cays', 'hideout', 'blue', 'south', 53.7, 32.9),
    ('Ile a Vache', 'hideout', 'yellow', 'south', 60.0, 21.5),
    ('Caicos', 'hideout', 'blue', 'north', 66.0, 9.0),
    ('Margarita', 'hideout', 'green', 'east', 79.8, 49.5),
    ('Saint Croix', 'hideout', 'red', 'east', 83.8, 27.5),
    ('Marie-Galante', 'hideout', 'yellow', 'east', 97.5, 29.5),
    ('Sigsbee Deep', 'start', None, 'west', 13.0, 17.0),
    ('Mosquito Bank', 'start', None, 'south', 36.5, 36.6),
    ('Gulf of Guacanayabo', 'start', None, 'north', 52.0, 16.9),
    ('Gulf of Uraba', 'start', None, 'south', 57.5, 51.5),
    ('Caicos Passage', 'start', None, 'north', 75.0, 12.0),
    ('Venezuelan Basin', 'start', None, 'south', 73.5, 36.0),
    ('Bay of Campeche', 'sea', None, 'west', 5.0, 32.0),
    ('Gulf of Honduras', 'sea', None, 'west', 22.4, 33.0),
    ('Campeche Bank', 'sea', None, 'west', 23.9, 11.0),
    ('Gulf of Mosquitos', 'sea', None, 'south', 37.0, 48.5),
    ('Serranilla Bank', 'sea', None, 'south', 45.8, 34.3),
    ('Cayman Trench', 'sea', None, 'north', 45.9, 22.8),
    ('Tongue of the Ocean', 'sea', None, 'north', 51.0, 11.5),
    ('Exuma Sound', 'sea', None, 'north', 60.0, 1.5),
    ('Jamaica Channel', 'sea', None, 'south', 59.0, 29.5),
    ('Curacao Basin', 'sea', None, 'east', 79.4, 41.9),
    ('Sombrero Passage', 'sea', None, 'east', 88.9, 23.2),
    ('Gulf of Paria', 'sea', None, 'east', 92.0, 53.0),
)
EDGES = (
    ('Trujillo', 'Isla del Carmen'),
    ('Trujillo', 'Utila'),
    ('Trujillo', 'Corn Islands'),
    ('Trujillo', 'Bay of Campeche'),
    ('Trujillo', 'Gulf of Honduras'),
    ('Trujillo', 'Gulf of Mosquitos'),
    ('Havana', 'Isla Mujeres'),
    ('Havana', 'Dry Tortugas'),
    ('Havana', 'Caicos'),
    ('Havana', 'Campeche Bank'),
    ('Havana', 'Tongue of the Ocean'),
    ('Havana', 'Exuma Sound'),
    ('Port Royal', 'Swan Islands'),
    ('Port Royal', 'Pedro Cays'),
    ('Port Royal', 'Ile a Vache'),
    ('Port Royal', 'Serranilla Bank'),
    ('Port Royal', 'Cayman Trench'),
    ('Port Royal', 'Jamaica Channel'),
    ('Bridgetown', 'Margarita'),
    ('Bridgetown', 'Saint Croix'),
    ('Bridgetown', 'Marie-Galante'),
    ('Bridgetown', 'Curacao Basin'),
    ('Bridgetown', 'Sombrero Passage'),
    ('Bridgetown', 'Gulf of Paria'),
    ('Veracruz', 'Isla Mujeres'),
    ('Veracruz', 'Sigsbee Deep'),
    ('Veracruz', 'Bay of Campeche'),
    ('Campeche', 'Isla del Carmen'),
    ('Campeche', 'Sigsbee Deep'),
    ('Campeche', 'Campeche Bank'),
    ('Belize', 'Swan Islands'),
    ('Belize', 'Mosquito Bank'),
    ('Belize', 'Gulf of Honduras'),
    ('Bluefields', 'Utila'),
    ('Bluefields', 'Mosquito Bank'),
    ('Bluefields', 'Serranilla Bank'),
    ('Trinidad', 'Dry Tortugas'),
    ('Trinidad', 'Gulf of Guacanayabo'),
    ('Trinidad', 'Cayman Trench'),
    ('Nombre de Dios', 'Margarita'),
    ('Nombre de Dios', 'Gulf of Uraba'),
    ('Nombre de Dios', 'Gulf of Mosquitos'),
    ('Cap-Francais', 'Ile a Vache'),
    ('Cap-Francais', 'Gulf of Guacanayabo'),
    ('Cap-Francais', 'Tongue of the Ocean'),
    ('Maracaibo', 'Corn Islands'),
    ('Maracaibo', 'Gulf of Uraba'),
    ('Maracaibo', 'Gulf of Paria'),
    ('Willemstad', 'Pedro Cays'),
    ('Willemstad', 'Venezuelan Basin'),
    ('Willemstad', 'Curacao Basin'),
    ('Santo Domingo', 'Saint Croix'),
    ('Santo Domingo', 'Venezuelan Basin'),
    ('Santo Domingo', 'Jamaica Channel'),
    ('San Juan', 'Caicos'),
    ('San Juan', 'Caicos Passage'),
    ('San Juan', 'Sombrero Passage'),
    ('Charlotte Amalie', 'Marie-Galante'),
    ('Charlotte Amalie', 'Caicos Passage'),
    ('Charlotte Amalie', 'Exuma Sound'),
    ('Isla del Carmen', 'Bay of Campeche'),
    ('Isla del Carmen', 'Gulf of Honduras'),
    ('Isla Mujeres', 'Campeche Bank'),
    ('Isla Mujeres', 'Exuma Sound'),
    ('Utila', 'Gulf of Honduras'),
    ('Utila', 'Gulf of Mosquitos'),
    ('Corn Islands', 'Bay of Campeche'),
    ('Corn Islands', 'Gulf of Mosquitos'),
    ('Swan Islands', 'Serranilla Bank'),
    ('Swan Islands', 'Cayman Trench'),
    ('Dry Tortugas', 'Campeche Bank'),
    ('Dry Tortugas', 'Tongue of the Ocean'),
    ('Pedro Cays', 'Serranilla Bank'),
    ('Pedro Cays', 'Jamaica Channel'),
    ('Ile a Vache', 'Cayman Trench'),
    ('Ile a Vache', 'Jamaica Channel'),
    ('Caicos', 'Tongue of the Ocean'),
    ('Caicos', 'Exuma Sound'),
    ('Margarita', 'Curacao Basin'),
    ('Margarita', 'Gulf of Paria'),
    ('Saint Croix', 'Curacao Basin'),
    ('Saint Croix', 'Sombrero Passage'),
    ('Marie-Galante', 'Sombrero Passage'),
    ('Marie-Galante', 'Gulf of Paria'),
)
TURN = {
    'Trujillo': 'Port Royal',
    'Havana': 'Havana',
    'Port Royal': 'Bridgetown',
    'Bridgetown': 'Trujillo',
    'Veracruz': 'Trinidad',
    'Campeche': 'Cap-Francais',
    'Belize': 'Santo Domingo',
    'Bluefields': 'Willemstad',
    'Trinidad': 'San Juan',
    'Nombre de Dios': 'Bluefields',
    'Cap-Francais': 'Charlotte Amalie',
    'Maracaibo': 'Belize',
    'Willemstad': 'Nombre de Dios',
    'Santo Domingo': 'Maracaibo',
    'San Juan': 'Veracruz',
    'Charlotte Amalie': 'Campeche',
    'Isla del Carmen': 'Ile a Vache',
    'Isla Mujeres': 'Dry Tortugas',
    'Utila': 'Pedro Cays',
    'Corn Islands': 'Swan Islands',
    'Swan Islands': 'Saint Croix',
    'Dry Tortugas': 'Caicos',
    'Pedro Cays': 'Margarita',
    'Ile a Vache': 'Marie-Galante',
    'Caicos': 'Isla Mujeres',
    'Margarita': 'Utila',
    'Saint Croix': 'Corn Islands',
    'Marie-Galante': 'Isla del Carmen',
    'Sigsbee Deep': 'Gulf of Guacanayabo',
    'Mosquito Bank': 'Venezuelan Basin',
    'Gulf of Guacanayabo': 'Caicos Passage',
    'Gulf of Uraba': 'Mosquito Bank',
    'Caicos Passage': 'Sigsbee Deep',
    'Venezuelan Basin': 'Gulf of Uraba',
    'Bay of Campeche': 'Cayman Trench',
    'Gulf of Honduras': 'Jamaica Channel',
    'Campeche Bank': 'Tongue of the Ocean',
    'Gulf of Mosquitos': 'Serranilla Bank',
    'Serranilla Bank': 'Curacao Basin',
    'Cayman Trench': 'Sombrero Passage',
    'Tongue of the Ocean': 'Exuma Sound',
    'Exuma Sound': 'Campeche Bank',
    'Jamaica Channel': 'Gulf of Paria',
    'Curacao Basin': 'Gulf of Mosquitos',
    'Sombrero Passage': 'Bay of Campeche',
    'Gulf of Paria': 'Gulf of Honduras',
}
SWAP = {
    'Trujillo': 'Havana',
    'Havana': 'Trujillo',
    'Port Royal': 'Bridgetown',
    'Bridgetown': 'Port Royal',
    'Veracruz': 'Campeche',
    'Campeche': 'Veracruz',
    'Belize': 'Charlotte Amalie',
    'Bluefields': 'San Juan',
    'Trinidad': 'Maracaibo',
    'Nombre de Dios': 'Cap-Francais',
    'Cap-Francais': 'Nombre de Dios',
    'Maracaibo': 'Trinidad',
    'Willemstad': 'Santo Domingo',
    'Santo Domingo': 'Willemstad',
    'San Juan': 'Bluefields',
    'Charlotte Amalie': 'Belize',
    'Isla del Carmen': 'Isla Mujeres',
    'Isla Mujeres': 'Isla del Carmen',
    'Utila': 'Caicos',
    'Corn Islands': 'Dry Tortugas',
    'Swan Islands': 'Marie-Galante',
    'Dry Tortugas': 'Corn Islands',
    'Pedro Cays': 'Saint Croix',
    'Ile a Vache': 'Margarita',
    'Caicos': 'Utila',
    'Margarita': 'Ile a Vache',
    'Saint Croix': 'Pedro Cays',
    'Marie-Galante': 'Swan Islands',
    'Sigsbee Deep': 'Sigsbee Deep',
    'Mosquito Bank': 'Caicos Passage',
    'Gulf of Guacanayabo': 'Gulf of Uraba',
    'Gulf of Uraba': 'Gulf of Guacanayabo',
    'Caicos Passage': 'Mosquito Bank',
    'Venezuelan Basin': 'Venezuelan Basin',
    'Bay of Campeche': 'Campeche Bank',
    'Gulf of Honduras': 'Exuma Sound',
    'Campeche Bank': 'Bay of Campeche',
    'Gulf of Mosquitos': 'Tongue of the Ocean',
    'Serranilla Bank': 'Sombrero Passage',
    'Cayman Trench': 'Gulf of Paria',
    'Tongue of the Ocean': 'Gulf of Mosquitos',
    'Exuma Sound': 'Gulf of Honduras',
    'Jamaica Channel': 'Curacao Basin',
    'Curacao Basin': 'Jamaica Channel',
    'Sombrero Passage': 'Serranilla Bank',
    'Gulf of Paria': 'Cayman Trench',
}

#: The two symmetries that generate the map's 12: area name -> image (see the docstring).
SYMMETRIES = {"turn": TURN, "swap": SWAP}

CARIBBEAN = Board.from_data("caribbean", AREAS, EDGES)
