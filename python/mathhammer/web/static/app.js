// mathhammer's page (docs/web.md, "The page"): forms -> the JSON API of this server -> tables and charts.
// Nothing is computed here but what the charts draw from the answers (P(damage >= k) sums the pmf).
"use strict";

const API = "api/v1/";  // relative: the page works wherever the app is mounted
const COLOURS = { a: "#1f5fa8", b: "#c0561b" };
const SAVES = [2, 3, 4, 5, 6];
// where "auto" picks Monte Carlo, a fixed seed: a shared link shows the same numbers again (exact runs ignore it)
const SEED = 1;

// --- numbers as the command line prints them (mathhammer.report.tables.probability_text, report.text.number)
// `x` to `digits` decimals as Python's format does: toFixed rounds an exact tie (3.125) up, Python to
// even ("3.12"); a double's decimal expansion ends, so a tie shows as 5 then zeros to the end.
function fixed(x, digits) {
  const long = Math.abs(x).toFixed(Math.min(100, digits + 40));
  const [whole, fraction] = long.split(".");
  if (!/^50*$/.test(fraction.slice(digits))) return x.toFixed(digits);
  let kept = BigInt(whole + fraction.slice(0, digits));
  if (kept % 2n === 1n) kept += 1n;
  const text = kept.toString().padStart(digits + 1, "0");
  const sign = x < 0 && kept !== 0n ? "-" : "";
  return sign + (digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text);
}
// within this of 0 or 1 a chance is impossible or certain: a sum of exact terms lands a few ulps off
// (report.tables.CERTAIN on the main line)
const CERTAIN = 1e-12;
function probability(p) {
  if (Math.abs(p) <= CERTAIN || Math.abs(1 - p) <= CERTAIN) return `${fixed(Math.round(p) * 100, 0)}%`;
  const value = p * 100, step = 0.01;
  if (value < step / 2) return "<0.01%";
  if (value > 100 - step / 2) return ">99.99%";
  return `${fixed(value, 2)}%`;
}
const number = (x) => fixed(x, 2);

// --- the API
async function post(path, body) {
  const response = await fetch(API + path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (_) { data = { message: `HTTP ${response.status}` }; }
  return { ok: response.ok, status: response.status, data };
}

let PROFILES = {};

// --- forms and their state
const forms = {
  shoot: document.getElementById("shoot-form"),
  fight: document.getElementById("fight-form"),
  teams: document.getElementById("teams-form"),
  attack: document.getElementById("attack-form"),
};

function named(form, name) { return form.elements.namedItem(name); }
function value(form, name) {
  const input = named(form, name);
  return input.type === "checkbox" ? input.checked : input.value;
}
// an integer field as a number; anything else as typed, so the API names the field that is wrong
function integer(form, name) {
  const text = String(value(form, name)).trim();
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

function state(tab) {
  const params = new URLSearchParams({ tab });
  for (const input of forms[tab].elements) {
    if (!input.name) continue;
    params.set(input.name, input.type === "checkbox" ? (input.checked ? "1" : "0") : input.value);
  }
  return params;
}
function restore(tab, params) {
  for (const input of forms[tab].elements) {
    if (!input.name || !params.has(input.name)) continue;
    if (input.type === "checkbox") input.checked = params.get(input.name) === "1";
    else input.value = params.get(input.name);
  }
}
function remember(tab) {
  const hash = "#" + state(tab).toString();
  history.replaceState(null, "", hash);
  document.getElementById("share-link").value = location.href;
}

// --- errors beside the field they name
function clearErrors(form) {
  for (const old of form.querySelectorAll(".error")) old.remove();
  for (const input of form.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
  const status = form.querySelector(".status");
  status.textContent = "";
  status.classList.remove("failed");
}
function showError(form, inputName, message) {
  const input = inputName && named(form, inputName);
  if (!input) {
    const status = form.querySelector(".status");
    status.textContent = message;
    status.classList.add("failed");
    return;
  }
  const note = document.createElement("p");
  note.className = "error";
  note.id = `${input.id}-error`;
  note.textContent = message;
  input.closest(".field").append(note);
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", note.id);
}
// the input behind an API field: the longest of `fields` the error's field starts with
function inputFor(field, fields) {
  let best = null;
  for (const key of Object.keys(fields)) {
    if ((field === key || field.startsWith(key + ".") || field.startsWith(key + "["))
        && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? null : fields[best];
}
function failed(form, answer, fields) {
  const data = answer.data || {};
  const message = data.message || `HTTP ${answer.status}`;
  showError(form, data.field ? inputFor(data.field, fields) : null, message);
}

// --- tables and charts
// each cell carries its column's heading (data-label): at phone width a table stacks its rows and
// the cells say what they are (style.css), so no column is hidden off the screen
function fillRows(table, rows, paint) {
  const body = table.tBodies[0];
  const heads = table.tHead && table.tHead.rows.length ? [...table.tHead.rows[0].cells].map((c) => c.textContent) : [];
  body.replaceChildren();
  rows.forEach((row, r) => {
    const tr = document.createElement("tr");
    row.forEach((cell, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) td.scope = "row";
      if (heads[i]) td.dataset.label = heads[i];
      td.textContent = cell;
      if (paint && i > 0) paint(td, r, i - 1);
      tr.append(td);
    });
    body.append(tr);
  });
}
function showNotes(list, notes) {
  list.replaceChildren(...notes.map((note) => { const li = document.createElement("li"); li.textContent = note; return li; }));
  list.hidden = notes.length === 0;
}
function fillHead(table, cells) {
  const tr = document.createElement("tr");
  for (const cell of cells) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = cell;
    tr.append(th);
  }
  table.tHead.replaceChildren(tr);
}
// {start, pmf} -> probabilities indexed by value from 0 to `length - 1`
function byValue(distribution, length) {
  const out = new Array(length).fill(0);
  distribution.pmf.forEach((p, i) => { if (distribution.start + i < length) out[distribution.start + i] = p; });
  return out;
}
function lastValue(distribution) { return distribution.start + distribution.pmf.length - 1; }

function draw(canvas, type, labels, datasets, xTitle, yTitle) {
  const old = Chart.getChart(canvas);
  if (old) old.destroy();
  new Chart(canvas, {
    type,
    data: { labels, datasets },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      // a chance axis ends at 100 %: the nice ticks past the data would otherwise reach 120 %
      scales: { x: { title: { display: true, text: xTitle } },
                y: { beginAtZero: true, title: { display: true, text: yTitle },
                     afterDataLimits: (axis) => { axis.max = Math.min(axis.max, 100); } } },
      plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${probability(c.raw / 100)}` } } },
    },
  });
}
function series(label, side, values, type) {
  const colour = COLOURS[side];
  return { label, data: values.map((p) => p * 100), backgroundColor: colour + (type === "line" ? "33" : "cc"),
           borderColor: colour, borderWidth: type === "line" ? 2 : 0, pointRadius: type === "line" ? 2 : 0 };
}

// --- Kill Team shoot
const SHOT_FIELDS = {
  "weapon": "attacks", "weapon.attacks": "attacks", "weapon.hit": "hit", "weapon.damage": "normal",
  "weapon.rules": "rules", "target": "save", "target.save": "save", "target.wounds": "wounds",
  "target.abilities": "abilities", "cover": "cover", "obscured": "obscured", "rounds": "rounds",
};
function shotBody(form, side) {
  return {
    weapon: { attacks: integer(form, `${side}.attacks`), hit: integer(form, `${side}.hit`),
              damage: [integer(form, `${side}.normal`), integer(form, `${side}.crit`)], rules: value(form, `${side}.rules`) },
    target: { save: integer(form, `${side}.save`), wounds: integer(form, `${side}.wounds`),
              abilities: value(form, `${side}.abilities`) },
    cover: integer(form, `${side}.cover`), obscured: value(form, `${side}.obscured`), rounds: integer(form, `${side}.rounds`),
  };
}
function sideFields(side, fields) {
  return Object.fromEntries(Object.entries(fields).map(([key, name]) => [key, `${side}.${name}`]));
}

async function computeShoot() {
  const form = forms.shoot;
  const results = document.querySelector("#shoot .results");
  clearErrors(form);
  const bodies = { a: shotBody(form, "a"), b: shotBody(form, "b") };
  const answers = {};
  for (const side of ["a", "b"]) {
    answers[side] = await post("killteam/shoot", bodies[side]);
  }
  let bad = false;
  for (const side of ["a", "b"]) {
    if (!answers[side].ok) { failed(form, answers[side], sideFields(side, SHOT_FIELDS)); bad = true; }
  }
  if (bad) { results.hidden = true; return; }
  showNotes(document.getElementById("shoot-notes"),
            ["a", "b"].flatMap((side) => answers[side].data.notes.map((note) => `${side.toUpperCase()}: ${note}`)));
  const bySave = { a: [], b: [] };
  for (const side of ["a", "b"]) {
    for (const save of SAVES) {
      const answer = await post("killteam/shoot", { ...bodies[side], target: { ...bodies[side].target, save } });
      bySave[side].push(answer.ok ? answer.data.summary : null);
    }
  }
  fillRows(document.getElementById("shoot-summary"), ["a", "b"].map((side) => {
    const s = answers[side].data.summary;
    return [side.toUpperCase(), number(s.mean_damage), probability(s.kill_chance), probability(s.injury_chance)];
  }));
  const saves = document.getElementById("shoot-saves");
  fillHead(saves, ["save", "A mean damage", "A kill chance", "B mean damage", "B kill chance"]);
  fillRows(saves, SAVES.map((save, i) => [`${save}+`, ...["a", "b"].flatMap((side) => {
    const s = bySave[side][i];
    return s ? [number(s.mean_damage), probability(s.kill_chance)] : ["–", "–"];
  })]));
  const damage = { a: answers.a.data.result.damage, b: answers.b.data.result.damage };
  const length = Math.max(lastValue(damage.a), lastValue(damage.b)) + 1;
  const labels = Array.from({ length }, (_, k) => String(k));
  const pmf = { a: byValue(damage.a, length), b: byValue(damage.b, length) };
  draw(document.getElementById("shoot-chart"), "bar", labels,
       ["a", "b"].map((side) => series(`${side.toUpperCase()}: P(damage = k)`, side, pmf[side], "bar")),
       "damage k", "chance (%)");
  const atLeast = (values) => values.map((_, k) => values.slice(k).reduce((x, y) => x + y, 0));
  draw(document.getElementById("shoot-curve"), "line", labels,
       ["a", "b"].map((side) => series(`${side.toUpperCase()}: P(damage ≥ k)`, side, atLeast(pmf[side]), "line")),
       "damage k", "chance (%)");
  results.hidden = false;
}

// --- Kill Team fight
const FIGHT_FIELDS = {
  "": "attacks", ".attacks": "attacks", ".hit": "hit", ".damage": "normal", ".wounds": "wounds", ".rules": "rules",
  ".abilities": "abilities", ".strategy": "strategy",
};
function fighter(form, side) {
  return { attacks: integer(form, `${side}.attacks`), hit: integer(form, `${side}.hit`),
           damage: [integer(form, `${side}.normal`), integer(form, `${side}.crit`)],
           wounds: integer(form, `${side}.wounds`), rules: value(form, `${side}.rules`),
           abilities: value(form, `${side}.abilities`), strategy: value(form, `${side}.strategy`) };
}
async function computeFight() {
  const form = forms.fight;
  const results = document.querySelector("#fight .results");
  clearErrors(form);
  const answer = await post("killteam/fight", { a: fighter(form, "a"), b: fighter(form, "b"),
                                                first: value(form, "first"), rounds: integer(form, "rounds"),
                                                seed: SEED });
  if (!answer.ok) {
    const fields = { first: "first", rounds: "rounds" };
    for (const side of ["a", "b"]) {
      for (const [suffix, name] of Object.entries(FIGHT_FIELDS)) fields[side + suffix] = `${side}.${name}`;
    }
    failed(form, answer, fields);
    results.hidden = true;
    return;
  }
  const s = answer.data.summary, r = answer.data.result;
  showNotes(document.getElementById("fight-notes"), answer.data.notes);
  fillRows(document.getElementById("fight-summary"), [
    ["A", probability(s.death_chance_b), probability(s.death_chance_a), number(s.mean_wounds_a)],
    ["B", probability(s.death_chance_a), probability(s.death_chance_b), number(s.mean_wounds_b)],
  ]);
  const length = Math.max(lastValue(r.wounds_a), lastValue(r.wounds_b)) + 1;
  draw(document.getElementById("fight-chart"), "bar", Array.from({ length }, (_, k) => String(k)),
       [series("A: P(wounds left = k)", "a", byValue(r.wounds_a, length), "bar"),
        series("B: P(wounds left = k)", "b", byValue(r.wounds_b, length), "bar")],
       "wounds left k", "chance (%)");
  results.hidden = false;
}


// --- Kill Team teams: my team against theirs (POST killteam/matchup; docs/web.md, "Teams")
const TEAM_FIELDS = { team_a: "team_a", team_b: "team_b", cover: "cover", "strategies[0][0]": "strategy_a",
                      "strategies[0][1]": "strategy_b" };
// a heat map's cell: from the palest (the table's lowest value) to the darkest (its highest)
function heat(values) {
  const finite = values.flat().filter((v) => v !== null);
  const low = Math.min(...finite), high = Math.max(...finite);
  return (td, r, c) => {
    const v = values[r][c];
    if (v === null) return;
    const t = high > low ? (v - low) / (high - low) : 0;
    td.style.background = `hsl(210, 65%, ${Math.round(96 - 58 * t)}%)`;
    td.style.color = t > 0.55 ? "#fff" : "";
  };
}
// rows "operative: weapon" by first appearance, columns as given, a value per pairing (null where none)
function matrix(rows, columns, value) {
  const names = [...new Set(rows.map((x) => `${x.attacker}: ${x.weapon}`))];
  const table = names.map(() => columns.map(() => null));
  for (const x of rows) table[names.indexOf(`${x.attacker}: ${x.weapon}`)][columns.indexOf(x.defender)] = value(x);
  return { names, table };
}
function heatTable(id, first, columns, map, text) {
  const table = document.getElementById(id);
  table.hidden = map.names.length === 0;
  fillHead(table, [first, ...columns]);
  fillRows(table, map.names.map((name, r) => [name, ...map.table[r].map((v) => (v === null ? "–" : text(v)))]),
           heat(map.table));
}
async function computeTeams() {
  const form = forms.teams;
  const results = document.querySelector("#teams .results");
  clearErrors(form);
  const cover = integer(form, "cover");
  const answer = await post("killteam/matchup", {
    team_a: value(form, "team_a"), team_b: value(form, "team_b"), cover: [cover], first: ["a"],
    strategies: [[value(form, "strategy_a"), value(form, "strategy_b")]], method: "auto", seed: SEED });
  if (!answer.ok) { failed(form, answer, TEAM_FIELDS); results.hidden = true; return; }
  const s = answer.data.summary, r = answer.data.result;
  showNotes(document.getElementById("teams-notes"), answer.data.notes);
  const mine = (x) => (x.attacker === null ? "–" : `${x.attacker}/${x.weapon}`);
  const shots = document.getElementById("teams-shots");
  shots.caption.textContent = `My best weapon against each of their operatives, at cover ${s.cover ?? cover}`;
  fillRows(shots, s.shots.map((x) => [x.defender, x.attacker === null ? "none can damage it" : mine(x),
                                      x.shots_to_kill === null ? "never" : number(x.shots_to_kill),
                                      probability(x.kill_chance), number(x.mean_damage)]));
  shots.hidden = s.shots.length === 0;
  const fights = document.getElementById("teams-fights");
  fillRows(fights, s.fights.map((x) => [x.defender, mine(x), x.defender_weapon ?? "–", probability(x.kill_chance),
                                        probability(x.both_survive), probability(x.death_chance)]));
  fights.hidden = s.fights.length === 0;
  const wounds = Object.fromEntries(r.defenders.map((name, i) => [name, r.defender_wounds[i]]));
  heatTable("teams-heat-shoot", "my weapon", r.defenders, matrix(r.shots, r.defenders, (x) => x.mean_damage / wounds[x.defender]),
            (v) => `${fixed(v * 100, 0)}%`);
  const met = [...new Set(r.fights.map((x) => x.defender))];
  heatTable("teams-heat-fight", "my fighter", met, matrix(r.fights, met, (x) => x.kill_chance), probability);
  results.hidden = false;
}

// --- StarCraft attack
async function computeAttack() {
  const form = forms.attack;
  const results = document.querySelector("#attack .results");
  clearErrors(form);
  const answer = await post("starcraft/attack", { weapon: value(form, "weapon"), unit: value(form, "unit"),
                                                  firing_models: integer(form, "firing_models"), seed: SEED });
  if (!answer.ok) {
    failed(form, answer, { weapon: "weapon", unit: "unit", firing_models: "firing_models" });
    results.hidden = true;
    return;
  }
  const s = answer.data.summary, damage = answer.data.result.damage;
  fillRows(document.getElementById("attack-summary"),
           [[number(s.mean_damage), number(s.mean_casualties), probability(s.destroyed_chance)]]);
  const length = lastValue(damage) + 1;
  draw(document.getElementById("attack-chart"), "bar", Array.from({ length }, (_, k) => String(k)),
       [series("P(damage = k)", "a", byValue(damage, length), "bar")], "damage k", "chance (%)");
  results.hidden = false;
}

const COMPUTE = { shoot: computeShoot, fight: computeFight, teams: computeTeams, attack: computeAttack };

async function compute(tab) {
  const status = forms[tab].querySelector(".status");
  remember(tab);
  status.textContent = "computing…";
  document.body.dataset.busy = "1";
  const began = performance.now();
  try {
    await COMPUTE[tab]();
    document.body.dataset.ms = String(Math.round(performance.now() - began));  // how long the answer took to show
    if (!status.classList.contains("failed")) status.textContent = "";
  } catch (error) {
    showError(forms[tab], null, `the server could not be reached: ${error.message}`);
  } finally {
    delete document.body.dataset.busy;
    document.body.dataset.computed = String(Number(document.body.dataset.computed || 0) + 1);
  }
}

// --- profile pickers, fed by /api/v1/profiles: the loaded teams' profiles grouped by team, named as
// their datacards name them; the other profiles (built-in, bundled, libraries) first
const words = (name) => name.replace(/_/g, " ");
function teamsOf(game) { return (PROFILES[game] || {}).teams || {}; }
// {team: [[served name, text, the flat kind holding its fields]]} for a picker of `kind`
function teamOptions(game, kind) {
  const out = {};
  for (const [team, held] of Object.entries(teamsOf(game))) {
    const options = [];
    if (kind === "operative") {
      for (const [name, op] of Object.entries(held.operatives)) {
        options.push([name, `${op.name} (${op.fields.save}+ save, ${op.fields.wounds}W)`, "operative"]);
      }
    } else {
      const want = kind === "weapon" ? "ranged" : "melee";
      for (const [name, gun] of Object.entries(held.weapons)) {
        if (gun.kind !== want) continue;
        options.push([name, gun.operative ? `${gun.operative} — ${gun.name}` : `${gun.name} (equipment)`, gun.served_as]);
      }
    }
    out[team] = options;
  }
  return out;
}
function fillPickers() {
  for (const select of document.querySelectorAll("select[data-pick], select[data-names]")) {
    const [game, kind] = (select.dataset.pick || select.dataset.names).split(".");
    const entries = Object.keys((PROFILES[game] || {})[kind] || {});
    const keep = select.value;
    select.replaceChildren();
    if (select.dataset.pick) select.append(new Option("— your own (fields below) —", ""));
    const grouped = select.dataset.pick ? teamOptions(game, kind) : {};
    const owned = new Set(Object.values(grouped).flat().map(([name]) => name));
    // every weapon a team holds is grouped under it (a melee one under the fight's picker only)
    for (const held of Object.values(teamsOf(game))) for (const name of Object.keys(held.weapons)) owned.add(name);
    const others = entries.filter((name) => !owned.has(name));
    const into = (parent, name, text, source) => {
      const option = new Option(text, name);
      if (source && source !== kind) option.dataset.kind = source;
      parent.append(option);
    };
    if (select.dataset.pick && Object.keys(grouped).length) {
      const group = document.createElement("optgroup");
      group.label = "Profiles";
      for (const name of others) into(group, name, words(name));
      if (others.length) select.append(group);
      for (const [team, options] of Object.entries(grouped)) {
        if (!options.length) continue;
        const teamGroup = document.createElement("optgroup");
        teamGroup.label = team;
        for (const [name, text, source] of options) into(teamGroup, name, text, source);
        select.append(teamGroup);
      }
    } else {
      for (const name of others) into(select, name, select.dataset.pick ? words(name) : name);
    }
    if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
  }
  for (const select of document.querySelectorAll("select[data-teams]")) {
    const keep = select.value;
    select.replaceChildren();
    for (const [team, held] of Object.entries(teamsOf(select.dataset.teams))) {
      select.append(new Option(`${team} (${Object.keys(held.operatives).length} operatives)`, team));
    }
    if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
  }
  const teams = Object.keys(teamsOf("killteam"));
  const b = document.getElementById("teams-b");
  if (teams.length > 1 && !b.dataset.touched) b.value = teams[1];  // two teams: one against the other
  document.getElementById("teams-none").hidden = teams.length > 0;
}
// a box above each picker: typing keeps the options (and teams) whose names hold what is typed
function addFilter(select) {
  const box = document.createElement("input");
  box.type = "search";
  box.className = "filter";
  box.id = `${select.id}-filter`;
  box.placeholder = "type to filter";
  box.setAttribute("aria-label", `Filter: ${select.labels[0].textContent}`);
  box.setAttribute("aria-controls", select.id);
  box.addEventListener("input", () => {
    const wanted = box.value.trim().toLowerCase();
    for (const option of select.options) {
      if (!option.value) continue;
      const group = option.parentElement.tagName === "OPTGROUP" ? option.parentElement.label : "";
      option.hidden = Boolean(wanted) && !`${group} ${option.text}`.toLowerCase().includes(wanted);
    }
    for (const group of select.querySelectorAll("optgroup")) group.hidden = [...group.children].every((o) => o.hidden);
    const shown = [...select.options].filter((o) => o.value && !o.hidden);
    if (shown.length === 1 && select.value !== shown[0].value) {  // one left: it is the one meant
      select.value = shown[0].value;
      select.dispatchEvent(new Event("change"));
    }
  });
  select.before(box);
}
function pick(select) {
  const [game, kind] = select.dataset.pick.split(".");
  const option = select.selectedOptions[0];
  const profile = ((PROFILES[game] || {})[(option && option.dataset.kind) || kind] || {})[select.value];
  if (!profile) return;
  const form = select.form, side = select.dataset.prefix;
  const set = (name, v) => { const input = named(form, `${side}.${name}`); if (input && v !== undefined && v !== null) input.value = v; };
  if (profile.damage) { set("normal", profile.damage[0]); set("crit", profile.damage[1]); }
  for (const key of ["attacks", "hit", "rules", "save", "wounds", "abilities"]) set(key, profile[key]);
  const strategy = named(form, `${side}.strategy`);
  if (strategy && [...strategy.options].some((o) => o.value === profile.strategy)) strategy.value = profile.strategy;
}

// --- tabs (arrow keys move between them, as a tab list does)
const TABS = ["shoot", "fight", "teams", "attack"];
function show(tab) {
  for (const name of TABS) {
    const button = document.getElementById(`tab-${name}`);
    button.setAttribute("aria-selected", String(name === tab));
    button.tabIndex = name === tab ? 0 : -1;
    document.getElementById(name).hidden = name !== tab;
  }
}

async function start() {
  for (const name of TABS) {
    const button = document.getElementById(`tab-${name}`);
    button.addEventListener("click", () => { show(name); remember(name); });
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = TABS[(TABS.indexOf(name) + step + TABS.length) % TABS.length];
      show(next);
      document.getElementById(`tab-${next}`).focus();
    });
    forms[name].addEventListener("submit", (event) => { event.preventDefault(); compute(name); });
  }
  for (const select of document.querySelectorAll("select[data-pick], select[data-teams]")) addFilter(select);
  document.getElementById("teams-b").addEventListener("change", (event) => { event.target.dataset.touched = "1"; });
  for (const select of document.querySelectorAll("select[data-pick]")) {
    select.addEventListener("change", () => pick(select));
    // a field changed by hand: the picker no longer names what the fields hold
    for (const suffix of select.dataset.fields.split(" ")) {
      named(select.form, `${select.dataset.prefix}.${suffix}`).addEventListener("input", () => { select.value = ""; });
    }
  }
  document.getElementById("share").addEventListener("click", async () => {
    const link = document.getElementById("share-link");
    link.value = location.href;
    link.select();
    try { await navigator.clipboard.writeText(location.href); } catch (_) { /* the link stays selected to copy */ }
  });
  try {
    const response = await fetch(API + "profiles");
    PROFILES = await response.json();
  } catch (_) { PROFILES = {}; }
  fillPickers();
  const params = new URLSearchParams(location.hash.slice(1));
  const tab = TABS.includes(params.get("tab")) ? params.get("tab") : "shoot";
  show(tab);
  document.body.dataset.ready = "1";
  if (params.has("tab")) {  // a shared link: the same comparison, computed again
    restore(tab, params);
    await compute(tab);
  }
}

start();
