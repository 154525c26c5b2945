"""Text and SVG rendering of the board and a state."""

import xml.dom.minidom

from engines.karibik import CARIBBEAN, SHIPS, KaribikState, render_svg, render_text


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
    assert len(document.getElementsByTagName("circle")) == 46
    assert len(document.getElementsByTagName("line")) == sum(len(n) for n in CARIBBEAN.neighbours) // 2


def test_svg_of_empty_board_parses():
    xml.dom.minidom.parseString(render_svg(CARIBBEAN))
