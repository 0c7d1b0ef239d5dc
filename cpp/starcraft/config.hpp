// StarCraft: Tabletop Miniatures Game: the typed configurations of one batch and of the unit it
// attacks (docs/rules/starcraft.md §3, §4), combined in Python from profiles, keywords, grants and
// rule variants. Inputs are validated in Python; nothing here checks ranges.
#pragma once

namespace mh::starcraft {

// How the Surge result is found. fixed is a template weapon: the number of affected models.
enum class SurgeKind : int { none = 0, d3 = 1, d3_plus_1 = 2, d6 = 3, fixed = 4 };

struct UnitProfile {
    int hp = 1;
    int shield = 0;
};

struct UnitState {
    int models = 1;  // models left
    int marker = 0;  // damage on the Damage Marker
    bool shielded = false;
    bool first_model_alive = true;  // the model that carries the Shield on top of its HP
};

struct AllocParams {
    int concentrated_fire = 0;  // 0: no CONCENTRATED FIRE
    int visible_models = -1;    // -1: every model is visible
    bool engaged = false;       // engaged units ignore the visible-model cap
    int td_reduction = 0;
    int td_floor = 0;
    bool leftover_lost = false;  // rules.leftover = "lost": never keep a Damage Marker
};

// Everything a batch needs once profiles, keywords, grants and rule variants are combined in Python.
struct BatchConfig {
    bool roll_hits = true;  // false: HITS X (Y) — the dice go straight to the Armour Pool
    int dice_normal = 0;    // Attack Pool dice at normal range (or X in HITS mode)
    int dice_long = 0;      // dice of models at LONG RANGE (rolled after the normal-range group)
    int hit_target_normal = 4;
    int hit_target_long = 5;
    int precision = 0;
    bool crit_natural = false;  // rules.critical_hit = "natural": dice showing exactly critical_hit
    int critical_hit = 0;
    SurgeKind surge_kind = SurgeKind::none;  // none when the unit has none of the weapon's Surge tags
    int surge_fixed = 0;  // template main target: the affected models
    int dodge = 0;
    int armour_target = 4;
    int tough = 0;
    bool evade = false;  // Evade is rolled
    int evade_target = 6;
    int damage_per_die = 1;
    AllocParams alloc;

    int dice() const { return dice_normal + dice_long; }
    // The natural face Critical Hit counts (0, which no die shows, unless rules.critical_hit = "natural").
    int crit_face() const { return crit_natural ? critical_hit : 0; }
};

// What the exact engine needs for one attack, and what the Python side caches per configuration.
struct AttackCase {
    BatchConfig config;
    UnitProfile unit;
    UnitState state;
};

}  // namespace mh::starcraft
