"""A map file dropped into engine/maps without translations is reported by `python -m i18n check`
(its name and its ticket decks' names are messages like the code's strings)."""

import json
from importlib import resources

from engine import mapdata
from i18n import catalogs


def test_every_shipped_map_and_deck_name_is_a_message_and_translated():
    messages = catalogs.extract()
    for map_id in mapdata.available_maps():
        m = mapdata.load_map(map_id)
        assert ("map", m.name) in messages
        assert all(("deck", deck.name) in messages for deck in m.rules.decks.values())
    assert all(not catalogs.problems(language, messages) for language in catalogs.languages_to_check())


def test_a_new_map_file_without_translations_is_reported(monkeypatch):
    doc = json.loads(resources.files("engine.maps").joinpath("usa.json").read_bytes())
    doc.update(id="testland", name="Testland")
    for deck in doc["rules"]["ticket_decks"]:
        deck["name"] = f"Testland {deck['id']}"
    new = mapdata.parse_map(json.dumps(doc).encode())
    shipped, load = mapdata.available_maps(), mapdata.load_map
    monkeypatch.setattr(mapdata, "available_maps", lambda: [*shipped, "testland"])
    monkeypatch.setattr(mapdata, "load_map", lambda map_id: new if map_id == "testland" else load(map_id))
    found = catalogs.problems("ru", catalogs.extract())
    assert "missing: [map] 'Testland' (used at engine/maps/testland.json)" in found
    assert "missing: [deck] 'Testland base' (used at engine/maps/testland.json)" in found
