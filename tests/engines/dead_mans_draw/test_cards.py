"""Card notation, decks and character pools."""

from engines.dead_mans_draw import _cards as cards


def test_card_names_round_trip():
    assert cards.CARD_NAME[cards.ANCHOR * 10 + 5] == "A5"
    assert cards.parse("N9") == cards.MERMAID * 10 + 9
    assert all(cards.parse(name) == card for card, name in cards.CARD_NAME.items())


def test_one_set_has_sixty_cards_ten_suits_of_six():
    discard, draw = cards.one_set(mermaid_effect=False)
    assert len(discard) == 10 and len(draw) == 50
    every = sorted(discard + draw)
    for suit in cards.SUITS:
        values = [cards.value_of(c) for c in every if cards.suit_of(c) == suit]
        assert values == (list(range(4, 10)) if suit == cards.MERMAID else list(range(2, 8)))
    assert sorted(cards.names(discard)) == sorted(["A2", "H2", "C2", "K2", "T2", "M2", "O2", "S2", "X2", "N4"])


def test_mermaid_effect_set_has_mermaids_two_to_seven_and_mermaid_two_discarded():
    discard, draw = cards.one_set(mermaid_effect=True)
    mermaids = sorted(cards.value_of(c) for c in discard + draw if cards.suit_of(c) == cards.MERMAID)
    assert mermaids == [2, 3, 4, 5, 6, 7]
    assert "N2" in cards.names(discard) and len(discard) == 10 and len(draw) == 50


def test_party_doubles_cards_and_characters():
    discard, draw = cards.deck(mermaid_effect=False, party=True)
    assert len(discard) == 20 and len(draw) == 100
    assert len(cards.character_pool(mermaid_effect=False, party=True)) == 34
    assert len(cards.character_pool(mermaid_effect=True, party=False)) == 18
    assert len(cards.CHARACTERS) == 17
