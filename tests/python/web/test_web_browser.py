"""The web app in a real browser, as a person uses it: Playwright drives the system's
Chromium (Debian's ``chromium`` package; Playwright's own browser download is not used).
A whole hand played by clicking (only the engine's legal moves are clickable), a bot game
watched with pause and step, a replay stepped back and forth and reopened from its link, a
bad house-rules file explained, the rules in words, and the phone layout.

Skipped, saying why, without Playwright or without a Chromium (``apt-get install chromium``,
or point ``EIGHTS_CHROMIUM`` at one)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import eights
from web_helpers import chromium_path, live_server, requires_web, state_of

requires_web()

HOUSE_RULES = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"
pytest.importorskip("playwright", reason="the browser tests need Playwright: pip install playwright")
CHROMIUM = chromium_path()
if CHROMIUM is None:
    pytest.skip(
        "the browser tests need Chromium: apt-get install chromium (or set EIGHTS_CHROMIUM to its path)",
        allow_module_level=True,
    )

import httpx  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser-records")
    game = eights.Game("switch_blackjack", 3, seed=6)
    rng = random.Random(6)
    while not (game.is_terminal or game.is_truncated):
        game.step(rng.choice(game.legal_actions()))
    (root / "switch.json").write_text(json.dumps(game.record()))
    return root


@pytest.fixture(scope="module")
def server(records):
    with live_server(records_dir=str(records)) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


# Run before the page's own scripts by `slow_page`: every answer to a fetch is held back
# `window.fetchDelay(url, body)` ms (0 unless a test sets it), or until the promise it
# returns resolves, and `window.fetches` lists what was asked, so that a test can make
# answers come back late or out of order.
SLOW_FETCH = """
(() => {
  const fetch0 = window.fetch;
  window.fetches = [];
  window.fetchDelay = () => 0;
  window.fetch = async (url, init) => {
    const body = String(init && init.body);
    window.fetches.push([String(url), body]);
    const ms = window.fetchDelay(String(url), body);
    const response = await fetch0(url, init);
    if (ms && ms.then) await ms;
    else if (ms) await new Promise((done) => setTimeout(done, ms));
    return response;
  };
})();
"""


def _page(browser, server, init_script=None):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/#/play")
    page.evaluate("localStorage.setItem('eights.delay', '0')")  # bots' moves shown at once
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def page(browser, server):
    yield from _page(browser, server)


@pytest.fixture
def slow_page(browser, server):
    """A page whose fetch answers a test can delay (`SLOW_FETCH`)."""
    yield from _page(browser, server, SLOW_FETCH)


def _setup(page, preset, players, bots, seed, seat=None):
    mode = "watch" if seat is None else "play"
    page.wait_for_selector(f"form#setup[data-mode={mode}] #start:not([disabled])")
    page.select_option("#preset", preset)
    expect(page.locator(".rules-summary")).to_contain_text(eights.Rules(preset).title)
    page.select_option("#players", str(players))
    if seat is not None:
        page.select_option("#seat", str(seat))
    for seat_id, bot in bots.items():
        page.select_option(f"#bot-{seat_id}", bot)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector(".table-view")
    return page.url.rsplit("/", 1)[1]


def _setup_page(page, server, fetch_delay=None):
    """The setup page loaded with its rules, and ``fetch_delay`` (a script setting
    ``window.fetchDelay``, for a `slow_page`) run."""
    page.goto(server + "/#/play")
    page.wait_for_selector("#start:not([disabled])")
    if fetch_delay:
        page.evaluate(fetch_delay)
    return page


def _decision(page):
    return int(page.get_attribute(".table-view", "data-decision"))


def _wait_decision(page, ok, timeout_ms=TIMEOUT_MS):
    """Wait until ``ok(decision shown)`` (polled here: the page's content security policy
    forbids the evaluated strings of Playwright's wait_for_function)."""
    for _ in range(timeout_ms // 50):
        if page.locator(".table-view").count() and ok(_decision(page)):
            return _decision(page)
        page.wait_for_timeout(50)
    raise AssertionError(f"the table did not reach the decision wanted (at {_decision(page)})")


def test_play_a_whole_hand_by_clicking(page, server):
    page.goto(server + "/#/play")
    game_id = _setup(page, "crazy_eights", 2, {1: "heuristic"}, seed=12, seat=0)
    clicks = 0
    with httpx.Client(timeout=30) as client:
        for _ in range(500):
            page.wait_for_selector(".prompt.yours, .result")
            if page.locator(".result").count():
                break
            server_state = state_of(client, server, game_id)
            assert _decision(page) == server_state["decision"]
            clickable = page.locator(".board [data-action]")
            shown = {int(a) for a in clickable.evaluate_all("els => els.map(e => e.dataset.action)")}
            assert shown == {m["id"] for m in server_state["legal"]}  # only legal moves are buttons
            cards = page.locator(".hand button.card")
            target = cards.first if cards.count() else page.locator(".controls button").first
            before = _decision(page)
            target.click()
            clicks += 1
            _wait_decision(page, lambda d, before=before: d != before)
        final = state_of(client, server, game_id)
        record = client.get(f"{server}/api/games/{game_id}/record").json()
    assert final["over"]
    assert sum(1 for seat, _ in record["actions"] if seat == 0) == clicks
    expect(page.locator(".result h2")).to_have_text(final["result"]["text"])
    expect(page.locator(".tally")).to_contain_text("You")
    # New deal: a fresh hand at the same seat.
    page.click("#new-deal")
    expect(page.locator(".table-title")).to_contain_text("deal 2")
    expect(page.locator(".result")).to_have_count(0)


def test_watch_a_bot_game_with_pause_and_step(page, server):
    page.evaluate("localStorage.setItem('eights.delay', '150')")
    page.goto(server + "/#/watch")
    _setup(page, "crazy_eights", 3, {0: "heuristic", 1: "random", 2: "heuristic"}, seed=4)
    _wait_decision(page, lambda d: d >= 3)
    expect(page.locator(".seat .card[data-card]").first).to_be_visible()  # every hand face up
    page.click("#pause")
    expect(page.locator("#step")).to_be_enabled()  # paused, and no advance in flight any more
    paused_at = _decision(page)
    page.wait_for_timeout(800)
    assert _decision(page) == paused_at
    page.click("#step")
    _wait_decision(page, lambda d: d == paused_at + 1)
    page.wait_for_timeout(500)
    assert _decision(page) == paused_at + 1  # one step, then still paused
    page.select_option("#speed", "0")
    page.click("#pause")  # play on to the end
    page.wait_for_selector(".result", timeout=120_000)
    expect(page.locator(".result h2")).to_contain_text("won")


def test_step_a_replay_back_and_forth_and_reopen_its_link(page, server, records, browser):
    record = json.loads((records / "switch.json").read_text())
    steps = len(record["actions"])
    page.goto(server + "/#/replay")
    page.set_input_files("#record-file", str(records / "switch.json"))
    label = page.locator("#step-label")
    expect(label).to_have_text(f"move 0 / {steps}")

    def top_card_is(step):
        expected = eights.Game.from_record(record, upto=step).top_card
        expect(page.locator(".discard .card")).to_have_attribute("data-card", expected)

    for k in range(1, 4):
        page.click("#next")
        expect(label).to_have_text(f"move {k} / {steps}")
    top_card_is(3)
    page.click("#prev")
    expect(label).to_have_text(f"move 2 / {steps}")
    top_card_is(2)
    page.locator("#replay-slider").evaluate(
        f"(s) => {{ s.value = {steps // 2}; s.dispatchEvent(new Event('input')); }}"
    )
    expect(label).to_have_text(f"move {steps // 2} / {steps}")
    top_card_is(steps // 2)
    page.click("#last")
    expect(label).to_have_text(f"move {steps} / {steps}")
    seat, action = record["actions"][-1]
    expect(page.locator("#last-move")).to_contain_text(
        eights.render.action_text(eights.Game("switch_blackjack", 3), action)[-2:]
    )
    page.click("#first")
    expect(label).to_have_text(f"move 0 / {steps}")
    page.locator(".board").click()  # the arrow keys, once no form control has the focus
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(label).to_have_text(f"move 2 / {steps}")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(label).to_have_text(f"move 0 / {steps}")
    page.click("#next")
    link = page.url
    assert "step=1" in link
    other = browser.new_page()
    other.goto(link)
    expect(other.locator("#step-label")).to_have_text(f"move 1 / {steps}")
    expect(other.locator(".discard .card")).to_have_attribute(
        "data-card", eights.Game.from_record(record, upto=1).top_card
    )
    other.close()
    # The records folder's file, by its path.
    page.goto(server + "/#/replay")
    page.click("text=switch.json")
    expect(label).to_have_text(f"move 0 / {steps}")
    assert "path=switch.json" in page.url


def test_a_bad_house_rules_file_is_explained(page, server):
    page.goto(server + "/#/play")
    page.wait_for_selector("#start:not([disabled])")
    page.check("input[name=source][value=file]")
    error = page.locator("#rules-error")
    page.set_input_files(
        "#rules-file", files=[{"name": "bad.toml", "mimeType": "text/plain", "buffer": b"inherits = 'crazy_eights\n"}]
    )
    expect(error).to_contain_text("invalid TOML")
    expect(page.locator("#start")).to_be_disabled()
    misspelt = b"inherits = 'crazy_eights'\n[deal]\nhand_sise = 3\n"
    page.set_input_files("#rules-file", files=[{"name": "typo.toml", "mimeType": "text/plain", "buffer": misspelt}])
    expect(error).to_contain_text("deal.hand_sise")
    expect(error).to_contain_text("hand_size")
    with open(HOUSE_RULES, "rb") as f:
        good = f.read()
    page.set_input_files("#rules-file", files=[{"name": "house.toml", "mimeType": "text/plain", "buffer": good}])
    expect(error).to_have_count(0)
    expect(page.locator(".rules-summary")).to_contain_text("House Eights")
    page.click("#start")
    expect(page.locator(".table-title")).to_contain_text("House Eights")


def test_variants_that_clash_are_explained_and_the_boxes_stay(page, server):
    page.goto(server + "/#/play")
    page.wait_for_selector("#start:not([disabled])")
    page.select_option("#preset", "crazy_eights")
    page.check("input[value=draw_until_playable]")
    expect(page.locator("input[value=draw_until_playable]")).to_be_checked()
    page.check("input[value=draw_up_to_3]")
    # The two set draw.mode two ways: the engine's message, and the rules as they were.
    expect(page.locator("#rules-error")).to_contain_text("draw.mode")
    expect(page.locator("input[value=draw_up_to_3]")).not_to_be_checked()
    expect(page.locator("input[value=draw_until_playable]")).to_be_checked()
    expect(page.locator("#start")).to_be_enabled()
    page.uncheck("input[value=draw_until_playable]")
    page.check("input[value=draw_up_to_3]")
    expect(page.locator("#rules-error")).to_have_count(0)
    expect(page.locator("input[value=draw_up_to_3]")).to_be_checked()


def test_a_clash_ticked_before_the_last_answer_came_back_keeps_the_box_before_it(slow_page, server):
    # The first box's answer is held, so the second box is ticked before it comes back: the
    # clash must bring back the first box ticked with its own rules, not the rules shown then.
    held = """() => {
      const held = new Promise((done) => { window.release = done; });
      window.fetchDelay = (url, body) => (body.includes('"variants":["draw_until_playable"]') ? held : 0);
    }"""
    page = _setup_page(slow_page, server, held)
    expect(page.locator("#preset")).to_have_value("crazy_eights")
    page.check("input[value=draw_until_playable]")
    page.click("input[value=draw_up_to_3]")  # a click: the box is redrawn before check() could see it ticked
    expect(page.locator("#rules-error")).to_contain_text("draw.mode")
    page.evaluate("() => window.release()")
    expect(page.locator("input[value=draw_until_playable]")).to_be_checked()
    expect(page.locator("input[value=draw_up_to_3]")).not_to_be_checked()
    expect(page.locator("#rules-error")).to_contain_text("draw.mode")
    expect(page.locator("#start")).to_be_enabled()
    page.click("#start")
    expect(page.locator(".table-title")).to_be_visible()


def test_a_late_answer_about_the_rules_does_not_undo_a_later_choice(page, server):
    # Answers about the rules may come back out of order (a busy server): the box ticked
    # after choosing the preset must stay ticked when the preset's slower answer arrives.
    page.goto(server + "/#/play")
    page.wait_for_selector("#start:not([disabled])")
    page.evaluate(
        """() => {
          const fetch0 = window.fetch;
          window.lateAnswers = 0;
          window.fetch = async (url, init) => {
            const slow = String(url).endsWith("/api/rules") && !String(init && init.body).includes("variants");
            const response = await fetch0(url, init);
            if (slow) {
              await new Promise((done) => setTimeout(done, 1500));
              window.lateAnswers += 1;
            }
            return response;
          };
        }"""
    )
    page.select_option("#preset", "crazy_eights")
    page.check("input[value=draw_until_playable]")
    page.wait_for_function("() => window.lateAnswers >= 1")
    expect(page.locator("input[value=draw_until_playable]")).to_be_checked()


def test_the_rules_in_words_are_one_click_away(page, server):
    page.goto(server + "/#/play")
    _setup(page, "switch_blackjack", 2, {0: "random"}, seed=1, seat=1)
    page.click("#rules-button")
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    first_rule = next(
        line[2:] for line in eights.Rules("switch_blackjack").describe().splitlines() if line.startswith("- ")
    )
    expect(dialog).to_contain_text(first_rule)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_phone_layout_fits_the_screen(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(server + "/#/play")
    page.evaluate("localStorage.setItem('eights.delay', '0')")
    page.wait_for_selector("#start:not([disabled])")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _setup(page, "crazy_eights", 3, {}, seed=2, seat=0)
    page.wait_for_selector(".prompt.yours")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(page.locator(".hand .card").first).to_be_in_viewport()
    page.locator(".board [data-action]").first.tap()
    _wait_decision(page, lambda d: d != 0)
    context.close()


def _table_in_phase(client, server, phase, preset, players, variants=(), tries=60):
    """A played table (seat 0, heuristic bots) where the person is to act in ``phase``: found
    by answering random legal moves over HTTP, deal after deal."""
    rng = random.Random(phase)
    for seed in range(tries):
        body = {
            "preset": preset,
            "variants": list(variants),
            "players": players,
            "seat": 0,
            "bots": "heuristic",
            "seed": seed,
        }
        state = client.post(f"{server}/api/games", json=body).json()
        state = client.post(f"{server}/api/games/{state['id']}/advance", json={}).json()["state"]
        while not state["over"]:
            if state["phase"] == phase:
                return state
            move = rng.choice(state["legal"])
            state = client.post(f"{server}/api/games/{state['id']}/actions", json={"action": move["id"]}).json()[
                "state"
            ]
    raise AssertionError(f"no {phase} turn for the person in {tries} deals of {preset}")


@pytest.mark.parametrize(
    "phase,preset,players,variants,controls,kind",
    [
        ("nominate", "crazy_eights", 2, (), ".controls .suits button", "suit"),
        ("chain", "switch_blackjack", 2, (), ".controls button.accept", "accept"),
        ("give", "one_left", 2, (), ".hand button.card[data-kind=give]", "give"),
        ("target", "thirty_eights", 4, (), ".controls .targets button", "target"),
        ("ask", "thirty_eights", 4, (), ".controls .asks button", "ask"),
        ("keep", "larby_switch", 2, (), ".hand button.card[data-kind=keep]", "keep"),
        ("challenge", "kings_reverse", 2, ("joker_bluff",), ".controls button.challenge", "challenge"),
    ],
)
def test_each_kind_of_decision_has_its_own_controls(page, server, phase, preset, players, variants, controls, kind):
    with httpx.Client(timeout=30) as client:
        state = _table_in_phase(client, server, phase, preset, players, variants)
        page.goto(f"{server}/#/game/{state['id']}")
        page.wait_for_selector(".prompt.yours")
        shown = {
            int(a) for a in page.locator(".board [data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
        }
        assert shown == {m["id"] for m in state["legal"]}
        buttons = page.locator(controls)
        of_kind = {m["id"]: m for m in state["legal"] if m["kind"] == kind}
        assert buttons.count() == len(of_kind) > 0
        first = buttons.first
        move = of_kind[int(first.get_attribute("data-action"))]
        if kind == "target":  # the seat it swaps with, by name
            expect(first).to_have_text(f"Swap hands with {state['seats'][move['seat']]['name']}")
        else:
            assert move["label"] in (first.get_attribute("aria-label") or first.inner_text())
        first.click()
        _wait_decision(page, lambda d: d > state["decision"])
        after = state_of(client, server, state["id"])
        played = [m for m in after["history"] if m["decision"] == state["decision"] + 1]
        assert played and played[0]["action"] == move["id"] and played[0]["seat"] == 0


def test_the_learned_bot_is_offered_on_every_preset(page, server):
    page.goto(server + "/#/play")
    page.wait_for_selector("form#setup[data-mode=play] #start:not([disabled])")
    page.select_option("#preset", "crazy_eights")
    expect(page.locator("#bot-1 option[value=net]")).to_have_count(1)
    page.select_option("#bot-1", "net")
    page.select_option("#preset", "stalin")  # net plays every rule set
    expect(page.locator(".rules-summary")).to_contain_text(eights.Rules("stalin").title)
    expect(page.locator("#bot-1 option[value=net]")).to_have_count(1)
    expect(page.locator("#bot-1")).to_have_value("net")


# ----------------------------------------------------------------- answers late, clicks twice


def test_a_box_of_the_last_preset_ticked_while_the_next_one_loads(slow_page, server):
    # The boxes shown while a new preset's answer is on its way are the last preset's: the
    # refusal of one must not bring back the last preset's rules under the new one.
    # The first answer about stalin is held until the test releases it.
    held = """() => {
      const held = new Promise((done) => { window.release = done; });
      let first = true;
      window.fetchDelay = (url, body) => {
        if (!first || !url.endsWith('/api/rules') || !body.includes('stalin')) return 0;
        first = false;
        return held;
      };
    }"""
    page = _setup_page(slow_page, server, held)
    page.select_option("#preset", "stalin")
    page.click(
        "input[value=draw_until_playable]"
    )  # still a crazy_eights box (a click: it is gone before check() could see it ticked)
    expect(page.locator(".rules-summary")).to_contain_text(eights.Rules("stalin").title)
    page.evaluate("() => window.release()")
    page.wait_for_timeout(500)  # the held answer is in, and ignored
    expect(page.locator(".rules-summary")).to_contain_text(eights.Rules("stalin").title)
    page.click("#start")
    expect(page.locator(".table-title")).to_contain_text(eights.Rules("stalin").title)


def test_a_double_click_on_deal_opens_one_table(slow_page, server):
    delay = "() => { window.fetchDelay = (url) => url.endsWith('/api/games') ? 300 : 0; }"
    page = _setup_page(slow_page, server, delay)
    page.dblclick("#start")
    page.wait_for_selector(".table-view")
    posts = page.evaluate("() => window.fetches.filter(([url]) => url.endsWith('/api/games')).length")
    assert posts == 1


def test_a_double_click_on_rematch_deals_once_and_swaps_the_seats(page, server):
    with httpx.Client(timeout=30) as client:
        body = {"preset": "crazy_eights", "players": 2, "seat": 0, "bots": "heuristic", "seed": 3}
        state = client.post(f"{server}/api/games", json=body).json()
        gid = state["id"]
        state = client.post(f"{server}/api/games/{gid}/advance", json={}).json()["state"]
        rng = random.Random(1)
        while not state["over"]:
            move = rng.choice(state["legal"])
            state = client.post(f"{server}/api/games/{gid}/actions", json={"action": move["id"]}).json()["state"]
        names = [s["name"] for s in state["seats"]]
        page.goto(f"{server}/#/game/{gid}")
        page.wait_for_selector("#rematch")
        page.dblclick("#rematch")
        expect(page.locator(".table-title")).to_contain_text(f"deal {state['deal'] + 1} ")
        page.wait_for_timeout(500)  # a second deal, if asked for, would be in by now
        after = state_of(client, server, gid)
    assert after["deal"] == state["deal"] + 1
    assert [s["name"] for s in after["seats"]] == names[::-1]


def test_pause_and_play_at_once_keep_one_autoplay(page, server, records):
    page.goto(server + "/#/replay?path=switch.json&step=0")
    expect(page.locator("#step-label")).to_contain_text("move 0 /")
    page.click("#autoplay")  # play
    page.wait_for_timeout(1200)
    page.click("#autoplay")  # pause
    page.click("#autoplay")  # play again at once
    start = int(page.locator(".table-view").get_attribute("data-step"))
    page.wait_for_timeout(3000)
    end = int(page.locator(".table-view").get_attribute("data-step"))
    page.click("#autoplay")
    # One step every 500 ms gives about 6; two loops gave 11.
    assert end - start <= 7, f"{end - start} steps in 3 s"


def test_leaving_a_replay_while_a_step_loads_keeps_the_new_address(slow_page, server, records):
    page = slow_page
    page.goto(server + "/#/replay?path=switch.json&step=0")
    expect(page.locator("#step-label")).to_contain_text("move 0 /")
    page.evaluate("() => { window.fetchDelay = (url) => url.includes('/api/replays/') ? 1500 : 0; }")
    page.click("#last")
    page.locator("a.button[href='#/replay']").click()
    expect(page.locator("#record-file")).to_be_visible()
    page.wait_for_timeout(2000)  # the late answer is in
    assert page.url.endswith("#/replay"), page.url


def test_a_file_over_the_limit_is_not_undone_by_the_last_files_answer(slow_page, server):
    page = _setup_page(slow_page, server)
    page.check("input[name=source][value=file]")
    page.evaluate("() => { window.fetchDelay = (url) => url.endsWith('/api/rules') ? 1000 : 0; }")
    good = b"inherits = 'crazy_eights'\n"
    page.set_input_files("#rules-file", files=[{"name": "good.toml", "mimeType": "text/plain", "buffer": good}])
    big = b"#" * 70_000
    page.set_input_files("#rules-file", files=[{"name": "big.toml", "mimeType": "text/plain", "buffer": big}])
    expect(page.locator("#rules-error")).to_contain_text("limit")
    page.wait_for_timeout(1500)  # the good file's answer is in
    expect(page.locator("#rules-error")).to_contain_text("limit")
    expect(page.locator("#start")).to_be_disabled()
