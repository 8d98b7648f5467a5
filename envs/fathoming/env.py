"""The Fathoming: a two-player Warrior card battler with Terrains, Assets and Loot.

.. meta-table
| | |
|---|---|
| Import | `from fatezoo.envs import fathoming_v0` |
| Actions | Discrete(230) |
| Parallel API | No; PettingZoo's `turn_based_aec_to_parallel` wraps it |
| Agents | `player_0` .. `player_{n-1}`, n in 2-2 |
| Observation | Dict: `observation` Box(-1, 1, (3187,), float32), `action_mask` Box(0, 1, (230,), int8) |
| State | Box(-1, 1, (3187,), float32) |
| Render modes | `ansi`, `human`, `rgb_array` (the SVG view as (H, W, 3) uint8) |
| Ended game | AEC: the mask is all zeros and the agents step with None (PettingZoo's rule); vector and gym envs: every action is marked legal and is ignored |
| Illegal action | `illegal='raise'` (default) raises; `illegal='lose'` ends the game with -1 for the offender (for mask-blind tools that sample actions) |
| Rules | `envs/fathoming/RULES.md` |
.. end

## Description

Each player builds a 40-card deck (a preset, a list of card names, or a random legal
deck) of Warriors, Terrains (Personal and Global), Actions and Items. On your turn you
draw a card, get Energy (4, +1 per turn you have completed, at most 10), then, in any
order: summon Warriors (at most 4), play Terrains, Actions and Items, use Activate
abilities, attack with each Warrior once (paying its Attack Cost), or pay 2 Energy to
draw. Destroying an opposing Warrior gives you Loot (half its Summon Cost, rounded up);
ending your turn with no Warriors gives your opponent 1 Loot. First to 10 Loot wins, and
a player who begins a turn with an empty deck loses. `divine=True` adds the Divine
Intervention expansion (Divine cards, Medallions, instant wins).

## Observation

Seats are relative: "you" first, then the opponent. Hidden: the opponent's hand (only
its size and the cards you saw enter it) and the order of both decks. Deck lists are
public, so `opp_unseen` counts the opponent's cards you have not seen, by kind.

.. obs-table
| Index | Name | Meaning | Values |
|---|---|---|---|
| 0-4 | decision | one-hot: main, play target, attack target, activate target, pick | [0, 1] |
| 5-107 | pending_card | one-hot kind being played (target step) or searching (pick) | [0, 1] |
| 108-113 | pending_source | one-hot attacking Warrior slot or Activate source (target step) | [0, 1] |
| 114-115 | energy | Energy of you, the opponent / 10 | [0, 1] |
| 116-117 | loot | Loot of you, the opponent / 10 | [0, 1] |
| 118-119 | turns_done | completed turns of you, the opponent / 100 | [0, 1] |
| 120 | first | 1 if you went first | [0, 1] |
| 121 | my_turn | 1 if it is your turn | [0, 1] |
| 122-127 | sizes | hand, deck, discard sizes of you, then the opponent / 40 | [0, 1] |
| 128-129 | divine_cost | what a Divine card costs you, the opponent now / 10 | [0, 1] |
| 130 | temp_room | free rows of the temporary-effect table / 16 | [0, 1] |
| 131 | last_roll | the last die roll / 6 (0: none yet) | [0, 1] |
| 132-234 | hand | your hand: copies of each kind / 3 | [0, 1] |
| 235-337 | hand_cost | effective Summon Cost of each kind in your hand / 10 | [0, 1] |
| 338-440 | deck | your deck's contents (never its order): copies per kind / 3 | [0, 1] |
| 441-543 | opp_hand_known | the opponent's hand cards you have seen (searched, bounced) / 3 | [0, 1] |
| 544-646 | opp_unseen | the opponent's cards you have not seen (hand and deck) per kind / 3 | [0, 1] |
| 647-852 | discard | both discard piles (you, opponent): copies per kind / 3 | [0, 1] |
| 853-1058 | last_search | each player's last search reveal (one-hot kind) | [0, 1] |
| 1059-2858 | warriors | per seat and slot: present, kind, ATK, HP, damage, ATK cost /10, Guard /5, attacks left /3, can attack, item limit /3, items active, classes, Items /3 | [0, 1] |
| 2859-3179 | terrains | your Personal, the opponent's Personal, the Global Terrain: present, kind, Health /10, damage /10, controlled by you | [0, 1] |
| 3180-3185 | activated | your Activate sources used this turn | [0, 1] |
| 3186 | progress | completed turns / max_turns | [0, 1] |
.. end

## Action mask

`action_mask[a] == 1` iff action `a` is legal for this agent now; all zeros for the
agent whose turn it is not. Decisions with one legal action are applied by the core.

## Action

`play <card>` plays a card of that kind from your hand; an Item, or a card whose ability
targets, then asks for a `target` (or `cancel`, at most 3 times a turn). `attack with warrior <slot>` asks for a
target; `activate ...` uses an Activate ability; a search asks you to `pick` a kind.

.. action-table
| ID | Meaning |
|---|---|
| 0 | play Glimmer Sprite |
| 1 | play Dewdrop Pixie |
| 2 | play Thistle Duelist |
| 3 | play Moth Queen |
| 4 | play Puck the Trickster |
| 5 | play Village Guard |
| 6 | play Consumer |
| 7 | play Quartermaster |
| 8 | play Scholar of Tides |
| 9 | play Knight Captain |
| 10 | play Wolf Pup |
| 11 | play Howler |
| 12 | play Feral Berserker |
| 13 | play Bloodmoon Brute |
| 14 | play Pack Alpha |
| 15 | play Reef Scout |
| 16 | play Tide Healer |
| 17 | play Coral Sentinel |
| 18 | play Siren |
| 19 | play Leviathan Calf |
| 20 | play Pebble Golem |
| 21 | play Stone Wall |
| 22 | play Runesmith Golem |
| 23 | play Granite Guardian |
| 24 | play Iron Colossus |
| 25 | play Wisp |
| 26 | play Banshee |
| 27 | play Poltergeist |
| 28 | play Grave Whisperer |
| 29 | play Wraith Lord |
| 30 | play Cinder Whelp |
| 31 | play Drakeling |
| 32 | play Ember Wyrm |
| 33 | play Storm Drake |
| 34 | play Elder Dragon |
| 35 | play Goblin Sneak |
| 36 | play Loot Goblin |
| 37 | play Goblin Bombardier |
| 38 | play Goblin Tinker |
| 39 | play Goblin Warchief |
| 40 | play Fairy Ring |
| 41 | play Moonlit Glade |
| 42 | play Sarah Mart |
| 43 | play Town Square |
| 44 | play Den of Fangs |
| 45 | play Full Moon |
| 46 | play Kelp Sanctuary |
| 47 | play The Fathoms |
| 48 | play Quarry |
| 49 | play Mountain Pass |
| 50 | play Haunted Crypt |
| 51 | play Veil of Mist |
| 52 | play Dragon's Hoard |
| 53 | play Volcano |
| 54 | play Goblin Warren |
| 55 | play Party Bus |
| 56 | play Fireball |
| 57 | play Lucky Roll |
| 58 | play Earthquake |
| 59 | play Demolish |
| 60 | play Assassinate |
| 61 | play Disarm |
| 62 | play Field Medic |
| 63 | play Retreat |
| 64 | play Battle Cry |
| 65 | play Free Strike |
| 66 | play Second Wind |
| 67 | play Quick Study |
| 68 | play Energy Surge |
| 69 | play Plunder |
| 70 | play Scout the Depths |
| 71 | play Terraform |
| 72 | play Call to Arms |
| 73 | play Whirlpool |
| 74 | play Mind Rot |
| 75 | play Iron Sword |
| 76 | play Greatsword |
| 77 | play Tower Shield |
| 78 | play Chainmail |
| 79 | play Swift Boots |
| 80 | play Twin Daggers |
| 81 | play Healing Charm |
| 82 | play Silver Blade |
| 83 | play Dragonbane Lance |
| 84 | play Spiked Collar |
| 85 | play Thief's Glove |
| 86 | play Pixie Medallion |
| 87 | play Human Medallion |
| 88 | play Werewolf Medallion |
| 89 | play Merfolk Medallion |
| 90 | play Golem Medallion |
| 91 | play Specter Medallion |
| 92 | play Dragon Medallion |
| 93 | play Goblin Medallion |
| 94 | play Ambassador of the Eight |
| 95 | play Moon Pack Totem |
| 96 | play Seraph of the Deep |
| 97 | play Avatar of the Abyss |
| 98 | play Oracle of Endings |
| 99 | play Divine Throne |
| 100 | play Celestial Rift |
| 101 | play Judgment of the Deep |
| 102 | play Halo of Unity |
| 103 | attack with warrior 0 |
| 104 | attack with warrior 1 |
| 105 | attack with warrior 2 |
| 106 | attack with warrior 3 |
| 107 | activate warrior 0 |
| 108 | activate warrior 1 |
| 109 | activate warrior 2 |
| 110 | activate warrior 3 |
| 111 | activate personal terrain |
| 112 | activate global terrain |
| 113 | pay 2 energy: draw |
| 114 | end turn |
| 115 | target own warrior 0 |
| 116 | target own warrior 1 |
| 117 | target own warrior 2 |
| 118 | target own warrior 3 |
| 119 | target opposing warrior 0 |
| 120 | target opposing warrior 1 |
| 121 | target opposing warrior 2 |
| 122 | target opposing warrior 3 |
| 123 | target own personal terrain |
| 124 | target opposing personal terrain |
| 125 | target global terrain |
| 126 | pick Glimmer Sprite |
| 127 | pick Dewdrop Pixie |
| 128 | pick Thistle Duelist |
| 129 | pick Moth Queen |
| 130 | pick Puck the Trickster |
| 131 | pick Village Guard |
| 132 | pick Consumer |
| 133 | pick Quartermaster |
| 134 | pick Scholar of Tides |
| 135 | pick Knight Captain |
| 136 | pick Wolf Pup |
| 137 | pick Howler |
| 138 | pick Feral Berserker |
| 139 | pick Bloodmoon Brute |
| 140 | pick Pack Alpha |
| 141 | pick Reef Scout |
| 142 | pick Tide Healer |
| 143 | pick Coral Sentinel |
| 144 | pick Siren |
| 145 | pick Leviathan Calf |
| 146 | pick Pebble Golem |
| 147 | pick Stone Wall |
| 148 | pick Runesmith Golem |
| 149 | pick Granite Guardian |
| 150 | pick Iron Colossus |
| 151 | pick Wisp |
| 152 | pick Banshee |
| 153 | pick Poltergeist |
| 154 | pick Grave Whisperer |
| 155 | pick Wraith Lord |
| 156 | pick Cinder Whelp |
| 157 | pick Drakeling |
| 158 | pick Ember Wyrm |
| 159 | pick Storm Drake |
| 160 | pick Elder Dragon |
| 161 | pick Goblin Sneak |
| 162 | pick Loot Goblin |
| 163 | pick Goblin Bombardier |
| 164 | pick Goblin Tinker |
| 165 | pick Goblin Warchief |
| 166 | pick Fairy Ring |
| 167 | pick Moonlit Glade |
| 168 | pick Sarah Mart |
| 169 | pick Town Square |
| 170 | pick Den of Fangs |
| 171 | pick Full Moon |
| 172 | pick Kelp Sanctuary |
| 173 | pick The Fathoms |
| 174 | pick Quarry |
| 175 | pick Mountain Pass |
| 176 | pick Haunted Crypt |
| 177 | pick Veil of Mist |
| 178 | pick Dragon's Hoard |
| 179 | pick Volcano |
| 180 | pick Goblin Warren |
| 181 | pick Party Bus |
| 182 | pick Fireball |
| 183 | pick Lucky Roll |
| 184 | pick Earthquake |
| 185 | pick Demolish |
| 186 | pick Assassinate |
| 187 | pick Disarm |
| 188 | pick Field Medic |
| 189 | pick Retreat |
| 190 | pick Battle Cry |
| 191 | pick Free Strike |
| 192 | pick Second Wind |
| 193 | pick Quick Study |
| 194 | pick Energy Surge |
| 195 | pick Plunder |
| 196 | pick Scout the Depths |
| 197 | pick Terraform |
| 198 | pick Call to Arms |
| 199 | pick Whirlpool |
| 200 | pick Mind Rot |
| 201 | pick Iron Sword |
| 202 | pick Greatsword |
| 203 | pick Tower Shield |
| 204 | pick Chainmail |
| 205 | pick Swift Boots |
| 206 | pick Twin Daggers |
| 207 | pick Healing Charm |
| 208 | pick Silver Blade |
| 209 | pick Dragonbane Lance |
| 210 | pick Spiked Collar |
| 211 | pick Thief's Glove |
| 212 | pick Pixie Medallion |
| 213 | pick Human Medallion |
| 214 | pick Werewolf Medallion |
| 215 | pick Merfolk Medallion |
| 216 | pick Golem Medallion |
| 217 | pick Specter Medallion |
| 218 | pick Dragon Medallion |
| 219 | pick Goblin Medallion |
| 220 | pick Ambassador of the Eight |
| 221 | pick Moon Pack Totem |
| 222 | pick Seraph of the Deep |
| 223 | pick Avatar of the Abyss |
| 224 | pick Oracle of Endings |
| 225 | pick Divine Throne |
| 226 | pick Celestial Rift |
| 227 | pick Judgment of the Deep |
| 228 | pick Halo of Unity |
| 229 | cancel: back to the main step |
.. end

## Rewards

`reward="win"` (default): +1 to the winner, -1 to the loser; truncation gives 0.
`reward="score"` adds after each step (your Loot gained - the opponent's) / 10.

## Starting state

Both decks shuffled, five cards each, a coin flip for the first player.

## Rendering

`render()` (with `render_mode="ansi"` or `"human"`) shows **every card**, both hands
included; set `env.render_seat = 1` for one seat's view (`??` for cards it has not
seen). `env.render_svg(seat)` draws the same views as SVG.

## Episode end

Terminated when a player reaches 10 Loot, begins a turn with an empty deck, or meets an
instant-win condition (Divine Intervention). Truncated after `max_turns` completed
turns (default 200).

## Arguments

`num_players=2`, `decks="random"` (one spec or a pair: preset name, list of 40 card
names, or `"random"`), `divine=False`, `split="all"` ("train" or "test": held-out
deck class pairs, RULES.md R62), `reward="win"`, `max_turns=None`,
`render_mode=None` ("ansi" or "human"), `illegal="raise"` ("lose").

## Version history

- v0: first release.

## Example

>>> from fatezoo.envs import fathoming_v0
>>> env = fathoming_v0.env(decks=("Pixie Swarm", "Werewolf Pack"))
>>> env.reset(seed=0)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].argmax())
...     env.step(action)
>>> sorted(env.possible_agents)
['player_0', 'player_1']
"""

from fatezoo.envs.core.entry import entry_points

from . import SPEC

raw_env, env, vec = entry_points(SPEC, __doc__, __name__)
