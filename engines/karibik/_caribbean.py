"""The shipped map, "caribbean": an approximation of the original Karibik board.

The printed board of Karibik (Antonow & Schliemann, 2004) is not in the rulebook and no
public description of its areas exists, so this map is our own, built to play like it:

- 48 sea areas placed at real places of the Caribbean (x = longitude, y = latitude, scaled to
  a 100 x 55 drawing frame, y grows southwards). Areas touch when the shared sea between them
  is open water: the adjacency is the Gabriel graph of the area centres (no third centre in
  the circle over an edge) minus edges crossing Cuba, Hispaniola, Yucatan, Jamaica, Puerto
  Rico or the mainland, plus a few straits (Bay of Campeche - Gulf of Mexico, Gulf of Mexico -
  Florida Straits, Sigsbee Deep - Yucatan Channel, Aves Ridge - Bridgetown / Anegada Passage,
  Venezuelan Basin - Saint Thomas, Trujillo - Mosquito Bank / Isla Mujeres) and without three
  long diagonals of the open sea. That gives a planar-looking graph with average degree 3.5
  and diameter 12, like a board of irregular areas spanning the Gulf to the Lesser Antilles.
- 16 ports at historical port cities, 4-5 per region (west: Gulf and Central America, north:
  Greater Antilles and Bahamas, south: Spanish Main, east: Hispaniola to Barbados). Chest
  values (4000 x3, 5000 x3, 6000 x4, 7000 x3, 8000 x3) rise with a port's mean distance from
  the hideouts, so remote ports (Veracruz, Campeche, Bridgetown) pay most.
- 12 hideouts at islands that sheltered pirates, 3 per region; each colour owns one hideout
  in three of the four regions. The colours were assigned by exhaustive search to equalise
  the sum of shortest-path distances from a colour's hideouts to all ports (red 251, blue 251,
  green 245, yellow 246 steps: within 2.5%), and every hideout is within 3 steps of at least
  2 ports.
- 6 start areas (the ship symbols), one or two per region, and 14 open-sea areas.

Rows of ``AREAS``: ``(name, kind, extra, region, x, y)`` where ``extra`` is the chest value
of a port, the colour of a hideout, else None. ``EDGES`` are pairs of area names.
"""

from ._board import Board

AREAS = (
    ('Veracruz', 'port', 8000, 'west', 6.0, 22.2),
    ('Campeche', 'port', 8000, 'west', 17.5, 20.4),
    ('Trujillo', 'port', 4000, 'west', 30.0, 32.1),
    ('Havana', 'port', 7000, 'north', 39.0, 10.5),
    ('Nassau', 'port', 6000, 'north', 51.2, 6.3),
    ('Santiago de Cuba', 'port', 5000, 'north', 55.2, 22.5),
    ('Tortuga', 'port', 6000, 'north', 63.0, 19.8),
    ('Port Royal', 'port', 4000, 'north', 52.7, 28.5),
    ('Portobelo', 'port', 6000, 'south', 46.0, 51.0),
    ('Cartagena', 'port', 5000, 'south', 55.2, 48.3),
    ('Maracaibo', 'port', 4000, 'south', 66.8, 45.0),
    ('La Guaira', 'port', 6000, 'south', 77.7, 47.7),
    ('Santo Domingo', 'port', 5000, 'east', 70.2, 27.3),
    ('San Juan', 'port', 7000, 'east', 79.8, 24.3),
    ('Basseterre', 'port', 7000, 'east', 88.2, 29.4),
    ('Bridgetown', 'port', 8000, 'east', 95.8, 41.7),
    ('Isla del Carmen', 'hideout', 'blue', 'west', 13.8, 24.3),
    ('Isla Mujeres', 'hideout', 'red', 'west', 29.3, 16.5),
    ('Roatan', 'hideout', 'green', 'west', 28.8, 29.4),
    ('Isla de Pinos', 'hideout', 'yellow', 'north', 38.0, 17.1),
    ('Andros', 'hideout', 'green', 'north', 48.5, 9.0),
    ('Great Inagua', 'hideout', 'red', 'north', 61.5, 16.8),
    ('San Andres', 'hideout', 'yellow', 'south', 40.7, 42.9),
    ('Aruba', 'hideout', 'blue', 'south', 70.2, 42.0),
    ('Margarita', 'hideout', 'red', 'south', 85.0, 46.2),
    ('Ile a Vache', 'hideout', 'blue', 'east', 61.0, 27.9),
    ('Saint Thomas', 'hideout', 'green', 'east', 82.7, 24.9),
    ('Grenada', 'hideout', 'yellow', 'east', 91.0, 44.1),
    ('Sigsbee Deep', 'start', None, 'west', 16.2, 8.4),
    ('Cayman Trench', 'start', None, 'north', 43.8, 24.6),
    ('Mosquito Bank', 'start', None, 'south', 40.0, 35.4),
    ('Colombian Basin', 'start', None, 'south', 56.2, 39.0),
    ('Venezuelan Basin', 'start', None, 'east', 75.5, 36.0),
    ('Windward Passage', 'start', None, 'north', 60.0, 21.0),
    ('Bay of Campeche', 'sea', None, 'west', 10.0, 15.6),
    ('Gulf of Mexico', 'sea', None, 'west', 26.2, 5.4),
    ('Yucatan Channel', 'sea', None, 'west', 31.0, 14.1),
    ('Florida Straits', 'sea', None, 'north', 43.8, 9.0),
    ('Old Bahama Channel', 'sea', None, 'north', 53.8, 13.2),
    ('Caicos Passage', 'sea', None, 'north', 67.5, 14.1),
    ('Jardines Bank', 'sea', None, 'north', 47.5, 19.5),
    ('Serranilla Bank', 'sea', None, 'south', 46.2, 33.6),
    ('Gulf of Darien', 'sea', None, 'south', 50.0, 46.5),
    ('Beata Ridge', 'sea', None, 'south', 66.2, 34.5),
    ('Mona Passage', 'sea', None, 'east', 75.2, 26.1),
    ('Aves Ridge', 'sea', None, 'east', 85.5, 35.4),
    ('Anegada Passage', 'sea', None, 'east', 86.5, 24.3),
    ('Jamaica Channel', 'sea', None, 'north', 57.5, 27.0),
)
EDGES = (
    ('Veracruz', 'Isla del Carmen'),
    ('Veracruz', 'Bay of Campeche'),
    ('Campeche', 'Isla del Carmen'),
    ('Campeche', 'Sigsbee Deep'),
    ('Campeche', 'Bay of Campeche'),
    ('Trujillo', 'Isla Mujeres'),
    ('Trujillo', 'Roatan'),
    ('Trujillo', 'Mosquito Bank'),
    ('Havana', 'Yucatan Channel'),
    ('Havana', 'Florida Straits'),
    ('Nassau', 'Andros'),
    ('Nassau', 'Old Bahama Channel'),
    ('Santiago de Cuba', 'Windward Passage'),
    ('Santiago de Cuba', 'Jamaica Channel'),
    ('Tortuga', 'Great Inagua'),
    ('Tortuga', 'Windward Passage'),
    ('Tortuga', 'Caicos Passage'),
    ('Port Royal', 'Cayman Trench'),
    ('Port Royal', 'Colombian Basin'),
    ('Port Royal', 'Serranilla Bank'),
    ('Port Royal', 'Jamaica Channel'),
    ('Portobelo', 'San Andres'),
    ('Portobelo', 'Gulf of Darien'),
    ('Cartagena', 'Maracaibo'),
    ('Cartagena', 'Colombian Basin'),
    ('Cartagena', 'Gulf of Darien'),
    ('Maracaibo', 'Aruba'),
    ('Maracaibo', 'Colombian Basin'),
    ('La Guaira', 'Aruba'),
    ('La Guaira', 'Margarita'),
    ('La Guaira', 'Venezuelan Basin'),
    ('Santo Domingo', 'Ile a Vache'),
    ('Santo Domingo', 'Beata Ridge'),
    ('Santo Domingo', 'Mona Passage'),
    ('San Juan', 'Saint Thomas'),
    ('San Juan', 'Mona Passage'),
    ('Basseterre', 'Bridgetown'),
    ('Basseterre', 'Aves Ridge'),
    ('Basseterre', 'Anegada Passage'),
    ('Bridgetown', 'Grenada'),
    ('Bridgetown', 'Aves Ridge'),
    ('Isla del Carmen', 'Bay of Campeche'),
    ('Isla Mujeres', 'Roatan'),
    ('Isla Mujeres', 'Yucatan Channel'),
    ('Roatan', 'Isla de Pinos'),
    ('Isla de Pinos', 'Cayman Trench'),
    ('Isla de Pinos', 'Jardines Bank'),
    ('Andros', 'Florida Straits'),
    ('Andros', 'Old Bahama Channel'),
    ('Great Inagua', 'Windward Passage'),
    ('Great Inagua', 'Old Bahama Channel'),
    ('Great Inagua', 'Caicos Passage'),
    ('San Andres', 'Mosquito Bank'),
    ('San Andres', 'Gulf of Darien'),
    ('Aruba', 'Venezuelan Basin'),
    ('Aruba', 'Beata Ridge'),
    ('Margarita', 'Grenada'),
    ('Margarita', 'Aves Ridge'),
    ('Ile a Vache', 'Beata Ridge'),
    ('Ile a Vache', 'Jamaica Channel'),
    ('Saint Thomas', 'Venezuelan Basin'),
    ('Saint Thomas', 'Anegada Passage'),
    ('Grenada', 'Aves Ridge'),
    ('Sigsbee Deep', 'Bay of Campeche'),
    ('Sigsbee Deep', 'Gulf of Mexico'),
    ('Sigsbee Deep', 'Yucatan Channel'),
    ('Cayman Trench', 'Mosquito Bank'),
    ('Cayman Trench', 'Jardines Bank'),
    ('Cayman Trench', 'Serranilla Bank'),
    ('Mosquito Bank', 'Serranilla Bank'),
    ('Colombian Basin', 'Serranilla Bank'),
    ('Colombian Basin', 'Gulf of Darien'),
    ('Colombian Basin', 'Beata Ridge'),
    ('Venezuelan Basin', 'Beata Ridge'),
    ('Venezuelan Basin', 'Mona Passage'),
    ('Venezuelan Basin', 'Aves Ridge'),
    ('Windward Passage', 'Old Bahama Channel'),
    ('Windward Passage', 'Jamaica Channel'),
    ('Bay of Campeche', 'Gulf of Mexico'),
    ('Gulf of Mexico', 'Yucatan Channel'),
    ('Gulf of Mexico', 'Florida Straits'),
    ('Serranilla Bank', 'Gulf of Darien'),
    ('Aves Ridge', 'Anegada Passage'),
)

CARIBBEAN = Board.from_data("caribbean", AREAS, EDGES)
