#!/usr/bin/env python3
"""Writes modules/napoleon_1814/cards.xml: the 36 reconstructed Random Event Cards (16.1).
The card texts below are the source; edit them here and rerun. Python 3 stdlib only."""
import html
import os
W = "winter"; S = "spring"
C = []  # (num, name, single_side or None, coalition(text, effect, timing) / single(text,effect,timing), french(...), source)
def two(n, name, co, fr, src): C.append((n, name, None, co, fr, src))
def one(n, name, side, ins, src): C.append((n, name, side, ins, None, src))

one(1, "Hard frost", "both", ("The rivers freeze. This Turn rivers (not lake hexsides) do not block General Supply routes (6.2 bp3) or Depot chains (7.8), for both sides.", "rivers_frozen()", "turn"),
    "Rule 14.8 historical note (the harsh Pyrenean winter of 1813-14); the severe frost of January 1814 in eastern France (H. Houssaye, 1814, ch. 1).")
two(2, "Declaration of Frankfurt",
    ("Declaration of Frankfurt: the Allies make war on Napoleon, not on France. The French player has one (1) Combat Command fewer this Turn.", "enemy_cc(-1)", "combat_commands"),
    ("The Senate votes 300,000 conscripts: the French player receives one (1) additional Supply Train this Turn.", "supply_trains(+1)", "active_supply"),
    "Declaration of Frankfurt, 1 December 1813; senatus-consulte of 15 November 1813 calling up 300,000 men (Houssaye, 1814, ch. 1).")
one(3, "Typhus on the Rhine", "both", ("Typhus rages in the armies and fortresses on the Rhine. Each player disrupts one (1) of his undisrupted combat units in a hex on or adjacent to the River Rhine (owner's choice), if he has one.", "disrupt(1, each, near:rhine)", "immediate"),
    "The typhus epidemic in Mainz and the Rhine armies, November 1813 - January 1814 (D. Chandler, Dictionary of the Napoleonic Wars, 'Mainz'; Houssaye, 1814).")
one(4, "The Legislative Body defies the Emperor", "french", ("The Laine report and the dissolution of the Corps legislatif: the French player has one (1) Combat Command fewer this Turn, and French reinforcements due this Turn arrive at the end of the next Turn instead.", "cc(-1); delay_reinforcements(1)", "immediate"),
    "The Laine report of 29 December 1813 and Napoleon's dissolution of the Corps legislatif, 31 December 1813 (Houssaye, 1814, ch. 1); rule 14.5 historical note on the political situation.")
two(5, "The Swiss open their passes",
    ("The Swiss Diet lets the Allies through: one (1) Coalition stack in the Swiss Confederation may move this Turn although no Supply Train was allocated to it (all other conditions of 8.4 apply).", "free_move(1, region:switzerland)", "movement"),
    ("The Swiss uphold their neutrality: this Turn no Coalition General Supply route or Depot chain may be traced through the Swiss Confederation.", "block_supply(enemy, region:switzerland)", "turn"),
    "Rules 1.1 and 14.14 with its historical note (the Allies enter Switzerland, 20-21 December 1813); the 'Basic Rules' wording of 14.14 implies an advanced alternative (digest A-51).")
two(6, "Cossack raids",
    ("Cossack raiders: one (1) Coalition Cossack unit may move up to three (3) hexes this Turn without a Commander and without a Supply Train.", "free_move(1, cossack, no_commander)", "movement"),
    ("The peasants of Lorraine and the Vosges rise against the Cossacks: one (1) Coalition Cossack unit in French-friendly territory (French player's choice) is disrupted.", "disrupt(1, enemy, cossack, region:french_friendly)", "immediate"),
    "Rules 1.1 ('Cossacks ... alienate the inhabitants') and 13.1; the partisan war in Lorraine and the Vosges, January-February 1814 (Houssaye, 1814, ch. 1-2).")
two(7, "The council of Langres",
    ("The Allied sovereigns agree at Langres to advance on Paris: the Coalition player receives one (1) additional Combat Command this Turn.", "cc(+1)", "combat_commands"),
    ("Austrians and Russians quarrel at Langres: this Turn no stack containing both Austrian and Russian combat units may move.", "no_move(enemy, mixed:austria+russia)", "movement"),
    "The conferences at Langres, 22-29 January 1814; Austro-Russian rivalry (rule 14.14 historical note; F. L. Petre, Napoleon at Bay, ch. 1). The 1813 design notes describe a similar card.")
two(8, "Holland rises",
    ("The Dutch rise against France: this Turn Amsterdam counts as a Coalition-friendly city for establishing Depots (7.7).", "friendly_city(amsterdam)", "active_supply"),
    ("Carnot takes command at Antwerp: this Turn the French combat units in Antwerp add two (2) to their final defence value.", "defence_bonus(2, hex:Antwerp)", "combat"),
    "The Dutch rising of November 1813 (rule 1.1's Amsterdam exception); Carnot governor of Antwerp from January 1814 (Chandler, 'Antwerp').")
one(9, "Murat joins the Coalition", "coalition", ("Play immediately. Murat's Neapolitan Army joins the Coalition: from this Turn it moves and fights as a Coalition force, but may not stack with other Coalition units (16.3). If it has not yet been deployed it deploys on Turn 7 as a Coalition force (14.11).", "murat_joins()", "immediate"),
    "Rule 16.3 names this card; the Treaty of Naples between Murat and Austria, 11 January 1814.")
two(10, "Blucher crosses the Rhine",
    ("Blucher's New Year crossing at Kaub: this Turn one (1) Coalition attacking stack ignores the river modifier of 11.4 (and its supporting stacks that of 11.5).", "ignore_river(1)", "combat"),
    ("Marmont's screen: this Turn one (1) French defending stack may withdraw before combat (11.1) even if it is not composed solely of cavalry.", "withdraw_before_combat(1)", "combat"),
    "Blucher's crossing of the Rhine at Kaub, Mannheim and Koblenz, 1 January 1814, and Marmont's withdrawal to the Saar (Petre, Napoleon at Bay, ch. 2).")
one(11, "Conscripts desert", "french", ("Desertion among the 'Marie-Louises': the French player disrupts one (1) undisrupted French Conscript combat unit of his choice, if any.", "disrupt(1, french, class:conscript)", "immediate"),
    "Desertion among the conscripts of 1814 (Houssaye, 1814, ch. 1; Chandler, The Campaigns of Napoleon, part 16).")
two(12, "The Treaty of Valencay",
    ("Wellington's paymaster: the Coalition player receives one (1) additional Supply Train this Turn, to be allocated to a stack of Wellington's command.", "supply_trains(+1, army:peninsula)", "active_supply"),
    ("The Treaty of Valencay restores Ferdinand VII: Spanish Coalition units may not attack or support an attack this Turn.", "no_attack(enemy, nation:spain)", "combat"),
    "Treaty of Valencay, 11 December 1813; the Peninsular army's pay and supply (rule 14.10 historical note).")
one(13, "Blizzard", "both", ("Snowstorms: this Turn no stack may force march (8.4), and every march attrition roll (8.6) is increased by one (+1).", "no_forced_march(); march_drm(+1, all)", "movement"),
    "The snowstorm at La Rothiere, 1 February 1814, and the winter marches of January 1814 (Houssaye, 1814, ch. 2).")
two(14, "Schwarzenberg's caution",
    ("Schwarzenberg concentrates: one (1) stack of the Army of Bohemia may rally (8.1) this Turn without a Supply Train.", "free_rally(1, army:bohemia)", "movement"),
    ("Schwarzenberg hesitates: this Turn stacks of the Army of Bohemia may not attack unless Schwarzenberg is in the stack.", "no_attack(enemy, army:bohemia, unless:schwarzenberg)", "combat"),
    "Schwarzenberg's cautious conduct of the campaign, February 1814 (Petre, Napoleon at Bay, ch. 3-5).")
two(15, "The Congress of Chatillon",
    ("The Congress of Chatillon opens: the Coalition player decides who attacks first this Turn (9.3).", "first_attacker_choice()", "combat"),
    ("Caulaincourt negotiates at Chatillon: the Coalition player has one (1) Combat Command fewer this Turn.", "enemy_cc(-1)", "combat_commands"),
    "The Congress of Chatillon, 5 February - 19 March 1814 (Houssaye, 1814, ch. 3).")
two(16, "Intercepted dispatches",
    ("An intercepted French dispatch: the French player reveals the contents of one (1) hidden-force box (15.1) or one (1) face-down Supply Train of the Coalition player's choice.", "reveal(enemy, 1)", "immediate"),
    ("Peasants report the enemy's columns: the Coalition player reveals the contents of one (1) hidden-force box (15.1) or one (1) face-down Supply Train of the French player's choice.", "reveal(enemy, 1)", "immediate"),
    "Rule 15.1 ('some or all of the contents of a box may be revealed ... by a REC'); the intelligence war of 1814.")
one(17, "Thaw", "both", ("The thaw turns the roads to mud: this Turn every hex counts as difficult terrain for movement (8.4) unless entered across a road or pass hexside.", "all_difficult_unless_road()", "movement"),
    "The thaw of early February 1814 and the muddy roads of Champagne (Houssaye, 1814, ch. 2-3).")
two(18, "The National Guard is called out",
    ("Kleist and Kapzevich hurry on: one (1) Coalition reinforcement due next Turn arrives at the end of this Turn instead.", "hasten_reinforcement(1)", "reinforcements"),
    ("The National Guard is mobilised: the French player may rally one (1) disrupted French combat unit in a French-friendly city without a Supply Train or Commander.", "free_rally(1, french, city, region:french_friendly, no_commander)", "movement"),
    "Decrees mobilising the National Guard, January 1814; the arrival of Kleist's II Corps and Kapzevich's X Corps in February (Petre, Napoleon at Bay).")
# ---------------- spring ----------------
two(19, "The Treaty of Chaumont",
    ("The Treaty of Chaumont binds the Allies for twenty years: the Coalition player receives one (1) additional Combat Command this Turn.", "cc(+1)", "combat_commands"),
    ("The Allies haggle over the British subsidies: the Coalition player has one (1) Supply Train fewer this Turn.", "enemy_supply_trains(-1)", "active_supply"),
    "Treaty of Chaumont, 1-9 March 1814.")
two(20, "Blucher falls ill",
    ("Gneisenau directs the Army of Silesia: this Turn stacks of the Army of Silesia receive a minus one (-1) march attrition modifier (8.6).", "march_drm(-1, army:silesia)", "movement"),
    ("Blucher is ill at Laon: this Turn Blucher has a CR of zero (0) and none of his special characteristics (16.2).", "commander_disabled(blucher)", "turn"),
    "Blucher's illness at Laon, 9-10 March 1814 (Petre, Napoleon at Bay, ch. 7).")
one(21, "Soissons surrenders", "coalition", ("Play immediately. A panicking commander gives up his fortress: the Coalition player may eliminate one (1) French combat unit that is under siege (8.4, general exception).", "eliminate_besieged(1)", "immediate"),
    "The surrender of Soissons by General Moreau, 3 March 1814 (Houssaye, 1814, ch. 4).")
two(22, "Bordeaux declares for the King",
    ("The mayor of Bordeaux opens the gates: if a Coalition combat unit is within three (3) hexes of Bordeaux, Bordeaux is not a French Ultimate Supply Source this Turn and French reinforcements may not be placed there.", "uss_lost(bordeaux, if_enemy_within:3)", "turn"),
    ("A royalist plot is exposed: the Coalition player has one (1) Combat Command fewer this Turn.", "enemy_cc(-1)", "combat_commands"),
    "Bordeaux declares for Louis XVIII as Beresford enters, 12 March 1814 (Chandler, Dictionary, 'Bordeaux').")
two(23, "Soult stands at bay",
    ("Wellington's advance: one (1) stack of Wellington's command may force march this Turn with a minus one (-1) march attrition modifier (8.6).", "march_drm(-1, army:peninsula, count:1)", "movement"),
    ("Soult defends a strong position: this Turn one (1) defending French stack of Soult's command adds two (2) to its final defence value.", "defence_bonus(2, army:pyrenees, count:1)", "combat"),
    "Battles of Orthez (27 February 1814) and Toulouse (10 April 1814).")
two(24, "The intercepted letter",
    ("Napoleon's letter to Marie-Louise is taken by Cossacks: the French player reveals one (1) hidden-force box (15.1), and the Coalition player instigates this Turn's movement sequence (8.2).", "reveal(enemy, 1, boxes); first_mover()", "movement"),
    ("The manoeuvre on the enemy's rear: this Turn French stacks accompanied throughout by Napoleon receive a further minus one (-1) march attrition modifier (8.6).", "march_drm(-1, commander:napoleon)", "movement"),
    "Napoleon's letter of 22 March 1814, captured by Cossacks, and the Allied decision to march on Paris (Petre, Napoleon at Bay, ch. 9).")
two(25, "Royalist agitation",
    ("The Bourbon princes stir the provinces: one (1) French-friendly city within two (2) hexes of a Coalition combat unit counts as Coalition-friendly for establishing Depots this Turn (7.7).", "friendly_city(1, within:2)", "active_supply"),
    ("Levee en masse in Burgundy and Lorraine: one (1) Coalition stack in French-friendly territory without a Commander receives a forage marker this Turn (7.6).", "forage_marker(1, enemy, no_commander)", "active_supply"),
    "The Comte d'Artois in Franche-Comte and the Duc d'Angouleme with Wellington, February-March 1814; Napoleon's decrees of 5 March 1814 calling the people to arms (Houssaye, 1814).")
one(26, "Marmont goes over", "french", ("Play immediately. Marmont treats with the enemy: the French player removes from play one (1) combat unit of Marmont's VI Corps (his choice), if any is on the map.", "remove_unit(1, french, corps:VI)", "immediate"),
    "Marmont's convention with Schwarzenberg, Essonne, 4-5 April 1814.")
two(27, "Augereau on the Saone",
    ("Augereau's inertia: this Turn units of the Army of Lyon may not move.", "no_move(enemy, army:lyon)", "movement"),
    ("Augereau marches on Geneva: one (1) stack of the Army of Lyon may move this Turn although no Supply Train was allocated to it.", "free_move(1, army:lyon)", "movement"),
    "Augereau's campaign of February-March 1814 on the Saone and towards Geneva, and Napoleon's complaints of his slowness (Houssaye, 1814; Petre, Napoleon at Bay).")
two(28, "Bentinck lands in Italy",
    ("Bentinck's Anglo-Sicilians land on the Riviera: this Turn French units on hexes 4329 and 4428 are not deemed in General Supply (6.6).", "cancel_supply_exemption(4329 4428)", "general_supply"),
    ("The fortresses of Piedmont hold: this Turn French combat units in Italy add two (2) to their final defence value.", "defence_bonus(2, region:northern_italy)", "combat"),
    "Lord William Bentinck's landing at Livorno (8 March 1814) and capture of Genoa (18 April 1814).")
two(29, "On to Paris!",
    ("Tsar Alexander insists on the march to Paris: the Coalition player receives one (1) additional Combat Command and attacks first this Turn (9.3).", "cc(+1); first_attacker()", "combat_commands"),
    ("The Allied council is divided: this Turn each Coalition stack containing units of more than one nationality that wishes to move must roll 1xd6; on one or two (1 or 2) it does not move (as 16.2 (3)).", "move_roll(enemy, mixed, fail:2)", "movement"),
    "The Allied councils of war at Vitry and Sompuis, 24 March 1814 (Petre, Napoleon at Bay, ch. 9).")
two(30, "The defence of Paris",
    ("King Joseph leaves Paris: the French player has one (1) Combat Command fewer this Turn.", "enemy_cc(-1)", "combat_commands"),
    ("Marmont and Mortier fight before Paris: this Turn the French stack in Paris, if attacked, adds two (2) to its final defence value.", "defence_bonus(2, hex:Paris)", "combat"),
    "The battle of Paris, 30 March 1814, and Joseph Bonaparte's departure from the capital.")
one(31, "The Senate deposes the Emperor", "french", ("Play immediately. The French player has one (1) Combat Command fewer this Turn.", "cc(-1)", "immediate"),
    "The Senate's decree deposing Napoleon, 2-3 April 1814.")
two(32, "The Army of the North in Belgium",
    ("Saxe-Weimar advances: one (1) stack of the Army of the North may move this Turn although no Supply Train was allocated to it.", "free_move(1, army:north)", "movement"),
    ("Maison's raid in Flanders: this Turn one (1) French stack under Maison adds two (2) to its final attack or defence value.", "combat_bonus(2, commander:maison, count:1)", "combat"),
    "The III German Corps in Belgium and Maison's victory at Courtrai, 31 March 1814.")
two(33, "Raids on the lines of communication",
    ("Cossack raid: one (1) French Depot not occupied by a French combat unit and within three (3) hexes of a Coalition Cossack unit is eliminated (8.8).", "destroy_depot(1, within:3, cossack)", "immediate"),
    ("Cossack excesses rouse the country: this Turn the French player gains the Combat Command of 13.1 on a score of five or six (5 or 6).", "cossack_cc_die(5)", "reinforcements"),
    "Rule 13.1; Cossack raids in Champagne and Burgundy, March 1814.")
two(34, "Spring roads",
    ("Dry roads: this Turn Coalition stacks receive a minus one (-1) march attrition modifier (8.6).", "march_drm(-1, coalition)", "movement"),
    ("A rich province: this Turn French stacks ignore forage markers (6.3).", "ignore_forage(french)", "general_supply"),
    "The end of winter: rule 1.1 and the Historical note of 14.1 on the easing of supply in Spring.")
one(35, "Armistice talks at Lusigny", "both", ("Play immediately. Commissioners discuss an armistice: each player has one (1) Combat Command fewer this Turn (9.2 limits apply).", "cc(-1, each)", "immediate"),
    "The armistice negotiations at Lusigny, 24-28 February 1814, and the Congress of Chatillon.")
two(36, "Spanish excesses",
    ("Wellington sends the Spaniards home: this Turn rule 14.10 (Anglona) does not apply.", "suspend_rule(14.10)", "turn"),
    ("Pillage by Spanish troops: this Turn the French player rolls for 14.10 as if a unit of Anglona's were in France.", "force_rule(14.10)", "turn"),
    "Rule 14.10 and its historical note; Wellington's order sending most Spanish troops back to Spain, November 1813 - February 1814.")

assert len(C) == 36 and sorted(c[0] for c in C) == list(range(1, 37))
a = lambda s: html.escape(s, quote=True)
o = ['<?xml version="1.0" encoding="UTF-8"?>',
"""<!-- Random Event Cards of "1814: Napoleon's Defiance" (advanced rule 16.1) - A RECONSTRUCTION.
     The published card texts are not available. Only the deck structure comes from the rulebook
     (36 cards; Winter deck 1-18, Spring deck 19-36; cards 1, 3, 4, 9, 11, 13 and 17 set aside for
     the first deal; single-instruction cards marked "Play immediately"; effects last one Turn)
     and REC 9 (Murat joins the Coalition) from rule 16.3. Every other card was written for
     Vedette from events that the rules' historical notes name or that are well documented for the
     campaign; each card's source attribute gives its basis. See SOURCES.md and RULINGS.md R-6/R-7.

     Attributes of <card> (docs/module-format.md, cards.xml):
       number            the card's number (1-36)
       instructions      "two" (one set per side: only the drawer's set is carried out, 16.1)
                         or "single" (one set, "Play immediately", cannot be held)
       play-immediately  true for single-instruction cards
       side              single-instruction cards: the side the instruction applies to
                         ("both" is written as no side attribute and affects="both")
       coalition / french, coalition-effect / french-effect, coalition-timing / french-timing:
                         the two sets of instructions of a two-instruction card
       effect, timing    the instruction of a single-instruction card
       source            the historical basis of the reconstruction
     timing: immediate, turn (the whole Turn), or the phase id of module.xml in which it acts.
     Effects: a machine-readable summary for the rules, ";"-separated calls, e.g. cc(+1),
       enemy_cc(-1), supply_trains(+1), free_move(1, selector), no_move(enemy, selector),
       no_attack(enemy, selector), disrupt(n, who, selector), defence_bonus(n, selector),
       march_drm(n, selector), reveal(enemy, n), murat_joins(). Selectors: army:ID, corps:ID,
       nation:ID, commander:ID, region:ID (map.xml), hex:NAME, class:ID, cossack, mixed:A+B.
       "self" is the drawer, "enemy" the other player. The text is authoritative. -->""",
'<cards>']
for deck, lo, hi, nm in (("winter", 1, 18, "Winter deck (Random Event Cards 1-18, Turns 1-6)"),
                         ("spring", 19, 36, "Spring deck (Random Event Cards 19-36, Turns 7-12)")):
    o.append('  <deck id="%s" name="%s">' % (deck, nm))
    for n, name, side, i1, i2, src in C:
        if not lo <= n <= hi:
            continue
        if side is None:
            body = "Coalition: %s French: %s" % (i1[0], i2[0])
            attrs = ('number="%d" instructions="two" play-immediately="false"\n'
                     '        coalition="%s"\n        coalition-effect="%s" coalition-timing="%s"\n'
                     '        french="%s"\n        french-effect="%s" french-timing="%s"'
                     % (n, a(i1[0]), a(i1[1]), i1[2], a(i2[0]), a(i2[1]), i2[2]))
        else:
            body = "Play immediately. " + i1[0] if not i1[0].startswith("Play immediately") else i1[0]
            sd = ' side="%s"' % side if side != "both" else ''
            attrs = ('number="%d" instructions="single" play-immediately="true"%s affects="%s"\n'
                     '        effect="%s" timing="%s"' % (n, sd, side, a(i1[1]), i1[2]))
        o.append('    <card id="rec_%02d" name="%s" %s\n        source="%s">%s</card>'
                 % (n, a(name), attrs, a(src), html.escape(body, quote=False)))
    o.append('  </deck>')
o.append('</cards>')
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'modules', 'napoleon_1814', 'cards.xml'), 'w', encoding='utf-8').write("\n".join(o) + "\n")
print("ok")
