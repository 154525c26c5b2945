"""Text and SVG rendering of the board and a state."""

import math
import xml.dom.minidom

from engines.karibik import CARIBBEAN, SHIPS, KaribikState, render_svg, render_text
from engines.karibik._svg import RADIUS, text_box


def state():
    return KaribikState.from_setup(2, ships=["Havana", "Veracruz", "Utila", "Trinidad", "Mosquito Bank", "Sigsbee Deep"],
                                   cargo={1: "Veracruz"}, on_ports=["Campeche"], reserve=["Bridgetown", "San Juan"],
                                   scores=[7000, 2000])


def test_text_contains_every_area_name_and_ship():
    text = render_text(CARIBBEAN, state())
    for area in CARIBBEAN.areas:
        assert area.name in text
    for ship in SHIPS:
        assert ship in text
    assert "Bravo    at Veracruz             chest of Veracruz (5000)" in text
    assert "seat 0 (red): 7000" in text and "1 reserve pairs" in text


def test_text_map_marks_ships_on_their_areas():
    text = render_text(CARIBBEAN, state())
    havana = CARIBBEAN.area_id("Havana")
    assert f"A#{havana}" in text
    assert f"E*{CARIBBEAN.area_id('Mosquito Bank')}" in text


def test_text_without_state_is_the_board_only():
    text = render_text(CARIBBEAN)
    assert "Veracruz" in text and "Round" not in text and "Arriba" not in text


def test_svg_is_well_formed_and_complete():
    svg = render_svg(CARIBBEAN, state())
    document = xml.dom.minidom.parseString(svg)
    assert document.documentElement.tagName == "svg"
    texts = "".join(node.toxml() for node in document.getElementsByTagName("title"))
    for ship in SHIPS:
        assert ship in texts
    assert "Bravo carrying Veracruz" in texts
    for area in CARIBBEAN.areas:
        assert area.name in svg
    assert len([c for c in document.getElementsByTagName("circle") if c.parentNode.tagName == "svg"]) == 46
    assert len(document.getElementsByTagName("line")) == sum(len(n) for n in CARIBBEAN.neighbours) // 2


def test_svg_of_empty_board_parses():
    xml.dom.minidom.parseString(render_svg(CARIBBEAN))


def _boxes(document, cls):
    """Estimated boxes of the SVG's text elements of class ``cls`` (from position, anchor, size)."""
    found = []
    for node in document.getElementsByTagName("text"):
        if node.getAttribute("class") == cls:
            text = node.firstChild.data
            found.append((text, text_box(float(node.getAttribute("x")), float(node.getAttribute("y")), text,
                                         node.getAttribute("text-anchor") or "start")))
    return found


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_svg_names_overlap_no_other_name_and_no_area():
    document = xml.dom.minidom.parseString(render_svg(CARIBBEAN, state()))
    names = _boxes(document, "name")
    assert len(names) == len(CARIBBEAN.areas)
    circles = []
    for node in document.getElementsByTagName("circle"):
        x, y, r = (float(node.getAttribute(a)) for a in ("cx", "cy", "r"))
        circles.append((x - r, y - r, x + r, y + r))
    for i, (text, box) in enumerate(names):
        for other, other_box in names[i + 1:]:
            assert not _overlap(box, other_box), (text, other)
        assert not any(_overlap(box, circle) for circle in circles), text


def test_svg_areas_do_not_overlap_and_ids_are_readable():
    document = xml.dom.minidom.parseString(render_svg(CARIBBEAN))
    centres = [(float(c.getAttribute("cx")), float(c.getAttribute("cy"))) for c in document.getElementsByTagName("circle")
               if c.parentNode.tagName == "svg"]
    assert len(centres) == len(CARIBBEAN.areas)
    assert min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:]) > 2 * RADIUS
    ink = {int(t.firstChild.data): t.getAttribute("fill") for t in document.getElementsByTagName("text")
           if t.getAttribute("class") == "id"}
    for area in CARIBBEAN.areas:
        dark = area.kind == "hideout" and area.colour != "yellow"
        assert ink[area.id] == ("white" if dark else "black"), area.name


def test_svg_has_a_title_and_a_legend():
    svg = render_svg(CARIBBEAN)
    document = xml.dom.minidom.parseString(svg)
    title = [t for t in document.getElementsByTagName("text") if t.getAttribute("class") == "title"]
    assert title[0].firstChild.data == "Karibik: board 'caribbean'"
    legend = [g for g in document.getElementsByTagName("g") if g.getAttribute("class") == "legend"][0]
    words = [t.firstChild.data for t in legend.getElementsByTagName("text")]
    assert words == ["port (chest value)", "ship start", "open sea", "red hideout", "blue hideout", "green hideout",
                     "yellow hideout", "ship (gold: carries a chest)", "chest on its port"]
