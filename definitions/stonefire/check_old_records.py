"""Replays games of the pre-rules-as-data StoneFire encoding (commit caa07f6) into another
encoding: every decision must match label for label, except the free actions (the old single
menu of Quests and Clan powers = the Clan-power window, then the Quests step), which are mapped
by meaning. Compares the results. Not loaded by Cairn; a tool for the re-encoding's check.

    git archive caa07f6 definitions/stonefire | tar -x -C /tmp/sf_old
    OLD_DIR=/tmp/sf_old/definitions/stonefire NEW_DIR=definitions/stonefire \
      PYTHONPATH=. python3 definitions/stonefire/check_old_records.py x 100 [variant]

prints, for the four golden records and for N random games per player count, whether the
results are the same. The three fixes of the third audit change play on purpose, so against
the current definitions the golden records and some random games differ; against the
re-encoding without them (commit fc90146 with the Quest count correction of 65bd149) every
game matched: the 4 golden records, 1,600 random base games and 400 of `hard`."""
import glob, json, os, sys

from interpreter.load.build import load_game
from interpreter.agents import make_agents
from interpreter.engine import rng

OLD_DIR = os.environ.get('OLD_DIR', '/tmp/sf_old/definitions/stonefire')
NEW_DIR = os.environ.get('NEW_DIR', 'definitions/stonefire')
FREE = "Free actions before you Hunt or Search"
SUB = ("Place one card on your Quest", "Discard which Egg card", "Return the Rage tokens", "Put which card into your village")

def old_transcript(g, players, seed, actions=None):
    s = g.new_initial_state(players, seed, log=False)
    agents = make_agents(["random"], players, seed) if actions is None else None
    tr = []
    i = 0
    while not s.is_terminal():
        p = s.d['pending']
        a = actions[i] if actions is not None else agents[s.current_player()].step(s)
        who = p['player']
        s.apply_action(a); i += 1
        tr.append((p['prompt'], list(p['labels']), p['options'][a], a, len(s.d['places'][f'questing/{who}'])))
    return tr, s.d['result']

def acts_of(segment):
    """Old free-action segment -> (clan act or None, [quest acts]); an act = (head, [sub answers]).
    A clan act done after a Quest was completed is marked (it waits for the window that opens
    again after the completion)."""
    clan, quests = None, []
    cur = None
    completed = False
    for prompt, labels, opt, a, questing in segment:
        if prompt.startswith(FREE):
            if opt[0] == "go":
                cur = None; continue
            cur = (opt, [])
            if opt[0] == "clan":
                clan = cur
                clan_after_completion = completed
            else:
                quests.append(cur)
        else:
            cur[1].append(opt)
            if prompt.startswith("Place one card") and opt != "none" and questing == 0:
                completed = True
    if clan is not None and clan_after_completion:
        clan = (clan[0], clan[1], "late")
    return clan, quests

def replay(gnew, players, seed, tr, debug=False):
    s = gnew.new_initial_state(players, seed, log=False)
    i = 0
    clan = None; quests = []; pending_subs = []; nq0 = 0
    while not s.is_terminal():
        p = s.d['pending']
        prompt, labels, opts = p['prompt'], p['labels'], p['options']
        if pending_subs and str(pending_subs[0]).startswith("egg-") and not prompt.startswith("Discard which Egg"):
            pending_subs.pop(0)   # the only Egg card held: paid without a question
        if pending_subs:
            want = pending_subs.pop(0)
            a = opts.index(want)
        elif prompt.startswith("Free actions: use an ability"):
            if i < len(tr) and tr[i][0].startswith(FREE) and clan is None and not quests:
                j = i
                while j < len(tr) and (tr[j][0].startswith(FREE) or tr[j][0].startswith(SUB)):
                    j += 1
                clan, quests = acts_of(tr[i:j]); i = j; nq0 = len(quests)
                clan = clan if clan is not None else "none"
            if clan not in (None, "none", "used") and len(clan) == 3 and len(quests) < nq0:
                clan = (clan[0], clan[1])     # the window opened again after the completed Quest
            if clan not in (None, "none", "used") and len(clan) == 3:
                clan = (clan[0], clan[1])     # skip this window: the old game used it after a completed Quest
                a = opts.index(None); pending_subs = []
                if debug: print("NEW", prompt[:50], "-> Go on (late clan)")
                s.apply_action(a); continue
            egg_ready = clan in (None, "none", "used") or not clan[1] or not str(clan[1][0]).startswith("egg-") or s.d['loc'].get(clan[1][0]) == f"eggs/{p['player']}"
            if clan not in (None, "none", "used") and egg_ready:
                name = clan[0][1]["name"]
                cand = [k for k, o in enumerate(opts) if o is not None and labels[k].startswith(name + " (")]
                assert cand, ("clan power not offered", name, labels)
                a = cand[0]
                pending_subs = list(clan[1]); clan = "used"
            else:
                a = opts.index(None)
        elif prompt == FREE:
            if i < len(tr) and tr[i][0].startswith(FREE) and clan is None and not quests:
                j = i
                while j < len(tr) and (tr[j][0].startswith(FREE) or tr[j][0].startswith(SUB)):
                    j += 1
                clan, quests = acts_of(tr[i:j]); i = j; nq0 = len(quests)
                clan = clan if clan is not None else "none"
            if quests:
                head, subs = quests.pop(0)
                a = opts.index(head); pending_subs = list(subs)
            else:
                a = [k for k, o in enumerate(opts) if o[0] == "go"][0]
        else:
            if clan is not None or quests:
                assert not quests, ("quest acts left over", quests, prompt)
                clan = None
            op, ol, oo, oa, _q = tr[i]
            assert op == prompt and ol == labels, (i, op, prompt, ol, labels)
            a = oa; i += 1
        if debug: print("NEW", prompt[:50], "->", labels[a][:60])
        s.apply_action(a)
    assert i == len(tr), ("old transcript not consumed", i, len(tr))
    return s.d['result']

def same(r1, r2):
    return {k: r1[k] for k in ('scores', 'winners', 'tiebreaks', 'reason')} == {k: r2[k] for k in ('scores', 'winners', 'tiebreaks', 'reason')}

if __name__ == "__main__":
    variants = sys.argv[3:]
    gold = load_game(OLD_DIR, variants); gnew = load_game(NEW_DIR, variants)
    if not variants:
        for f in sorted(glob.glob('tests/golden/stonefire-*.json')):
            r = json.load(open(f))
            tr, res = old_transcript(gold, r['players'], r['seed'], r['actions'])
            assert res == r['result'] or same(res, r['result'])
            try:
                out = replay(gnew, r['players'], r['seed'], tr)
                print(f.split('/')[-1], 'same result' if same(out, r['result']) else ('DIFFERENT', out, r['result']))
            except (AssertionError, ValueError, IndexError) as e:
                print(f.split('/')[-1], 'DIVERGES', str(e)[:200])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    bad = 0
    for players in (1, 2, 3, 4):
        for k in range(n):
            seed = rng.derive(77, 1000 * players + k)
            tr, res = old_transcript(gold, players, seed)
            try:
                out = replay(gnew, players, seed, tr)
                ok = same(out, res)
            except (AssertionError, ValueError, IndexError) as e:
                ok = False; out = e
            if not ok:
                bad += 1
                if bad < 5: print('MISMATCH', players, k, str(out)[:300])
        print(players, 'players:', n, 'games, mismatches so far', bad)
