//! The gear lexicon: every phrase the text rubric understands, what it says about which
//! category, and the words that change a phrase's meaning (negators, intensifiers,
//! evaluations).
//!
//! Phrases are written in the tokeniser's normal form (lower case, `27-inch` is `# inch`):
//! `#` stands for any number. A weight is how many points a phrase moves a category away
//! from the middling 5 when said plainly; negation flips it ("no clutter" helps tidiness as
//! much as "clutter" hurts it). Weights were set so that one strong phrase moves a category
//! by 2-4 points and a category needs several consistent phrases to reach 1 or 10.

use crate::result::{CableType, Category, Seat};

const CABLES: Category = Category::CableManagement;
const LIGHT: Category = Category::RgbLighting;
const CLEAN: Category = Category::DeskCleanliness;
const CHAIR: Category = Category::ChairComfort;
const VIBE: Category = Category::AestheticVibe;

/// What a phrase is, beyond its category weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Role {
    /// Only its weights matter.
    Plain,
    /// A fact about the monitors, read by [`super::monitor`].
    Monitor(MonitorFact),
    /// A cable (or bundle) the cable inventory lists.
    Cable(CableType),
    /// Plants: a cue for the setup's kind.
    Plants,
    /// Gaming hardware: a cue for the setup's kind.
    Gaming,
    /// Coloured (RGB, LED, neon) lighting.
    ColouredLight,
    DarkRoom,
    /// What the user sits on.
    Seat(Seat),
}

/// A fact about the screens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum MonitorFact {
    /// "monitor", "screen", "display": the noun counts and qualifiers attach to.
    Screen,
    Tv,
    Laptop,
    /// `# inch`: the size is the phrase's number.
    Size,
    /// `# hz`: the refresh rate is the phrase's number.
    Refresh,
    /// "high refresh rate" without a number.
    HighRefresh,
    /// `# p`, `# k`, `# x #` (the number is read by the monitor module) or a named resolution
    /// with its vertical pixel count.
    Resolution(Option<u32>),
    Panel(Panel),
    Ultrawide,
    Curved,
    /// On an arm or wall mount.
    Arm,
    /// On a stand or riser.
    Stand,
    /// "at eye level", "eye height".
    EyeLevel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Panel {
    Tn,
    Va,
    Ips,
    MiniLed,
    Oled,
}

impl Panel {
    pub fn name(self) -> &'static str {
        match self {
            Panel::Tn => "TN",
            Panel::Va => "VA",
            Panel::Ips => "IPS",
            Panel::MiniLed => "mini-LED",
            Panel::Oled => "OLED",
        }
    }
}

/// One entry of the lexicon: phrases that mean the same thing.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cue {
    pub phrases: &'static [&'static str],
    /// Points per category when the phrase is said plainly; a 0 weight still marks the
    /// category as mentioned (and lets "great"/"terrible" score it).
    pub weights: &'static [(Category, f32)],
    /// Names desk or gaming gear: a description with none of these is not about a setup.
    pub gear: bool,
    pub role: Role,
}

const fn cue(phrases: &'static [&'static str], weights: &'static [(Category, f32)]) -> Cue {
    Cue { phrases, weights, gear: false, role: Role::Plain }
}

/// Desk or gaming gear, with no weight of its own.
const fn gear(phrases: &'static [&'static str]) -> Cue {
    Cue { phrases, weights: &[], gear: true, role: Role::Plain }
}

impl Cue {
    const fn gear(self) -> Cue {
        Cue { gear: true, ..self }
    }

    const fn role(self, role: Role) -> Cue {
        Cue { role, ..self }
    }

    /// The plain weight of this cue for `category`, if it speaks about it.
    pub fn weight(&self, category: Category) -> Option<f32> {
        self.weights.iter().find(|(c, _)| *c == category).map(|&(_, w)| w)
    }
}

const fn monitor(phrases: &'static [&'static str], fact: MonitorFact) -> Cue {
    gear(phrases).role(Role::Monitor(fact))
}

const fn cable(
    phrases: &'static [&'static str],
    kind: CableType,
    weights: &'static [(Category, f32)],
) -> Cue {
    cue(phrases, weights).gear().role(Role::Cable(kind))
}

/// Every phrase the rubric understands. When several match at the same place the longest
/// wins, so "cable management" is never read as a cable.
pub(super) static CUES: &[Cue] = &[
    // ---- Monitors (scored by the monitor module, not by weights) ----
    monitor(&["monitor", "monitors", "screen", "screens", "display", "displays"], MonitorFact::Screen),
    monitor(&["tv", "tvs", "television"], MonitorFact::Tv),
    monitor(&["laptop", "laptops", "macbook"], MonitorFact::Laptop),
    monitor(&["# inch", "# inches", "# in"], MonitorFact::Size),
    monitor(&["# hz"], MonitorFact::Refresh),
    monitor(&["high refresh", "high refresh rate"], MonitorFact::HighRefresh),
    monitor(&["# p", "# k", "# x #"], MonitorFact::Resolution(None)),
    monitor(&["uhd", "ultra hd"], MonitorFact::Resolution(Some(2160))),
    monitor(&["qhd", "wqhd", "quad hd"], MonitorFact::Resolution(Some(1440))),
    monitor(&["fhd", "full hd"], MonitorFact::Resolution(Some(1080))),
    monitor(&["oled", "qd oled", "woled"], MonitorFact::Panel(Panel::Oled)),
    monitor(&["mini led", "miniled"], MonitorFact::Panel(Panel::MiniLed)),
    monitor(&["ips", "nano ips"], MonitorFact::Panel(Panel::Ips)),
    monitor(&["va", "va panel"], MonitorFact::Panel(Panel::Va)),
    monitor(&["tn", "tn panel"], MonitorFact::Panel(Panel::Tn)),
    monitor(&["ultrawide", "ultra wide", "super ultrawide", "superwide"], MonitorFact::Ultrawide),
    monitor(&["curved"], MonitorFact::Curved),
    monitor(
        &[
            "monitor arm",
            "monitor arms",
            "on arms",
            "on arm",
            "on an arm",
            "gas spring arm",
            "gas spring arms",
            "spring arm",
            "spring arms",
            "dual arm",
            "arm mount",
            "vesa",
            "vesa mount",
            "monitor mount",
            "wall mounted",
            "mounted",
            "ergotron",
        ],
        MonitorFact::Arm,
    ),
    monitor(&["monitor stand", "monitor riser", "riser", "monitor shelf"], MonitorFact::Stand),
    monitor(&["at eye level", "eye level", "at eye height", "eye height"], MonitorFact::EyeLevel),
    // ---- Cable management ----
    cue(
        &[
            "cable management",
            "cable managed",
            "cables managed",
            "managed cables",
            "cable routing",
            "routed cables",
            "cables routed",
        ],
        &[(CABLES, 3.0), (CLEAN, 0.5)],
    )
    .gear(),
    cue(
        &[
            "cable tray",
            "cable trays",
            "cable basket",
            "cable net",
            "under desk tray",
            "under desk trays",
            "under desk cable tray",
            "under desk basket",
        ],
        &[(CABLES, 2.0)],
    )
    .gear(),
    cable(
        &["cables in a tray", "cables in a cable tray", "wires in a tray", "cables in trays"],
        CableType::Other,
        &[(CABLES, 2.5)],
    ),
    cue(
        &[
            "cable channel",
            "cable channels",
            "raceway",
            "raceways",
            "cable spine",
            "cable chain",
            "cable box",
        ],
        &[(CABLES, 1.5)],
    )
    .gear(),
    cue(
        &[
            "velcro",
            "velcro ties",
            "velcro straps",
            "zip ties",
            "zip tie",
            "cable ties",
            "cable tie",
            "twist ties",
        ],
        &[(CABLES, 1.0)],
    )
    .gear(),
    cue(&["cable clips", "cable clip", "adhesive clips", "cable holders"], &[(CABLES, 1.0)]).gear(),
    cue(
        &["cable sleeves", "cable sleeve", "sleeves", "sleeved", "cable sleeving"],
        &[(CABLES, 1.5), (VIBE, 0.5)],
    )
    .gear(),
    cable(&["sleeved cables", "braided cables"], CableType::Other, &[(CABLES, 1.5), (VIBE, 0.5)]),
    cable(
        &[
            "hidden cables",
            "cables hidden",
            "hidden wires",
            "wires hidden",
            "concealed cables",
            "cables concealed",
            "cables tucked away",
            "tucked away",
            "out of sight",
            "cable is hidden",
            "cables are hidden",
            "hidden behind",
            "none visible",
            "no cable in sight",
            "no cables in sight",
            "not a single cable",
            "off the floor",
        ],
        CableType::Other,
        &[(CABLES, 2.0)],
    ),
    cable(
        &["visible cables", "cables visible", "visible wires", "wires visible", "exposed cables"],
        CableType::Other,
        &[(CABLES, -1.0)],
    ),
    cable(
        &[
            "cables everywhere",
            "wires everywhere",
            "cords everywhere",
            "chargers everywhere",
            "cables all over",
            "wires all over",
            "cables all over the place",
        ],
        CableType::Other,
        &[(CABLES, -3.0), (CLEAN, -1.0)],
    ),
    cable(
        &[
            "cable mess",
            "nest of cables",
            "cable nest",
            "mass of cables",
            "pile of cables",
            "heap of cables",
            "cables strewn",
            "strewn cables",
            "mess of cables",
            "mess of wires",
            "wire mess",
            "cable spaghetti",
            "spaghetti",
            "rats nest",
            "rat nest",
            "birds nest",
            "cable chaos",
        ],
        CableType::Other,
        &[(CABLES, -2.5), (CLEAN, -0.5)],
    ),
    cable(&["tangled", "tangle", "tangled cables", "tangled wires"], CableType::Other, &[(CABLES, -2.0)]),
    cable(
        &["dangling", "dangling cables", "hanging cables", "cables hanging", "loose cables", "loose wires"],
        CableType::Other,
        &[(CABLES, -1.5)],
    ),
    cable(&["cables", "cable", "wires", "wire", "cords", "cord"], CableType::Other, &[(CABLES, 0.0)]),
    cable(
        &[
            "hdmi",
            "hdmi cable",
            "displayport",
            "displayport cable",
            "dp cable",
            "monitor cable",
            "monitor cables",
        ],
        CableType::Monitor,
        &[(CABLES, 0.0)],
    ),
    cable(
        &[
            "power cable",
            "power cables",
            "power cord",
            "power cords",
            "power strip",
            "power strips",
            "power bar",
            "extension cord",
            "extension cords",
            "extension lead",
            "surge protector",
            "power brick",
            "power bricks",
        ],
        CableType::Power,
        &[(CABLES, 0.0)],
    ),
    cable(&["keyboard cable"], CableType::Keyboard, &[(CABLES, 0.0)]),
    cable(
        &["coiled cable", "coiled cables", "aviator cable", "coiled aviator cable"],
        CableType::Keyboard,
        &[(CABLES, 1.0), (VIBE, 1.0)],
    ),
    cable(&["mouse cable"], CableType::Mouse, &[(CABLES, 0.0)]),
    cable(&["mouse bungee"], CableType::Mouse, &[(CABLES, 0.5)]),
    cable(
        &["audio cable", "aux cable", "xlr", "xlr cable", "speaker cable", "speaker cables", "speaker wire"],
        CableType::Audio,
        &[(CABLES, 0.0)],
    ),
    cable(&["headphone cable", "headset cable"], CableType::Headphone, &[(CABLES, 0.0)]),
    cable(
        &[
            "usb cable",
            "usb cables",
            "ethernet",
            "ethernet cable",
            "lan cable",
            "charging cable",
            "charger",
            "chargers",
        ],
        CableType::Other,
        &[(CABLES, 0.0)],
    ),
    cue(&["wireless"], &[(CABLES, 1.0)]).gear(),
    // ---- RGB and lighting ----
    cue(
        &[
            "rgb strips",
            "rgb strip",
            "led strips",
            "led strip",
            "light strips",
            "light strip",
            "lightstrip",
            "lightstrips",
            "led lights",
            "rgb lights",
            "rgb lighting",
            "argb",
        ],
        &[(LIGHT, 2.5), (VIBE, 0.5)],
    )
    .gear()
    .role(Role::ColouredLight),
    cue(
        &[
            "nanoleaf",
            "nanoleafs",
            "hexagon lights",
            "light panels",
            "govee",
            "philips hue",
            "hue",
            "hue lights",
            "hue bars",
            "lifx",
            "wled",
            "smart lights",
            "smart bulbs",
        ],
        &[(LIGHT, 2.5), (VIBE, 0.5)],
    )
    .gear()
    .role(Role::ColouredLight),
    cue(
        &[
            "rgb",
            "leds",
            "rgb fans",
            "chroma",
            "icue",
            "aura sync",
            "underglow",
            "neon",
            "neon sign",
            "ambient lighting",
            "ambient light",
            "accent lighting",
            "backlit",
            "backlighting",
            "coloured lighting",
            "colored lighting",
            "coloured lights",
            "colored lights",
            "colourful lighting",
            "colorful lighting",
            "colourful lights",
            "colorful lights",
        ],
        &[(LIGHT, 2.0), (VIBE, 0.5)],
    )
    .gear()
    .role(Role::ColouredLight),
    cue(&["bias lighting", "bias light", "bias lights"], &[(LIGHT, 2.0)]).gear(),
    cue(&["light bar", "monitor light", "monitor light bar", "screenbar", "screen bar"], &[(LIGHT, 1.5)])
        .gear(),
    cue(&["ring light", "key light", "softbox"], &[(LIGHT, 1.0)]).gear(),
    cue(&["desk lamp", "lamp", "desk light", "floor lamp"], &[(LIGHT, 0.5)]).gear(),
    cue(&["natural light", "daylight", "sunlight", "window", "big window"], &[(LIGHT, 1.0), (VIBE, 0.5)]),
    cue(&["warm glow", "warm light", "warm lighting", "warm lamps", "glow"], &[(LIGHT, 1.0), (VIBE, 0.5)]),
    cue(
        &["synced", "in sync", "color matched", "colour matched", "color coordinated", "colour coordinated"],
        &[(LIGHT, 0.5), (VIBE, 1.0)],
    ),
    // Saying there are lights is a plus, so that "no lights" is a minus that a plain desk lamp
    // doesn't outweigh.
    cue(&["lighting", "lights"], &[(LIGHT, 1.5)]),
    cue(
        &["dark room", "in the dark", "pitch black", "dimly lit", "dim room", "poorly lit", "badly lit"],
        &[(LIGHT, -1.5)],
    )
    .role(Role::DarkRoom),
    // Lit only as the room happens to be: no lighting of its own.
    cue(
        &[
            "overhead light",
            "ceiling light",
            "ceiling lights",
            "room light",
            "room lighting",
            "office lighting",
            "flat light",
            "flat lighting",
            "fluorescent",
            "fluorescent light",
            "harsh light",
            "harsh lighting",
        ],
        &[(LIGHT, -1.0)],
    ),
    cue(&["too much rgb", "rgb overload", "rainbow puke", "unicorn vomit"], &[(LIGHT, 0.5), (VIBE, -1.0)])
        .gear()
        .role(Role::ColouredLight),
    // ---- Desk cleanliness ----
    cue(&["clean", "cleaned"], &[(CLEAN, 2.0), (VIBE, 0.5)]),
    cue(&["clean desk", "clear desk", "empty desk"], &[(CLEAN, 2.0), (VIBE, 0.5)]).gear(),
    cue(&["spotless", "pristine", "immaculate", "squeaky clean", "dust free"], &[(CLEAN, 3.0), (VIBE, 0.5)]),
    cue(
        &[
            "tidy",
            "tidied",
            "neat",
            "neatly",
            "organized",
            "organised",
            "orderly",
            "decluttered",
            "uncluttered",
            "clutter free",
        ],
        &[(CLEAN, 2.0), (VIBE, 0.5)],
    ),
    cue(
        &["minimal", "minimalist", "minimalistic", "clean setup", "clean look"],
        &[(CLEAN, 1.5), (VIBE, 1.5)],
    ),
    cue(
        &[
            "messy",
            "mess",
            "untidy",
            "disorganized",
            "disorganised",
            "cluttered",
            "clutter",
            "chaotic",
            "chaos",
        ],
        &[(CLEAN, -2.5), (VIBE, -0.5)],
    ),
    cue(&["disaster", "pigsty", "dump", "war zone"], &[(CLEAN, -3.0), (VIBE, -0.5)]),
    cue(
        &["buried", "buried in", "buried under", "strewn", "littered", "littered with", "covered in junk"],
        &[(CLEAN, -2.5), (VIBE, -0.5)],
    ),
    cue(&["heaped", "heaped with", "piled", "piled up", "piled with", "stacks of"], &[(CLEAN, -1.5)]),
    cue(&["cramped", "crowded"], &[(CLEAN, -1.0)]),
    cue(&["dirty", "filthy", "grimy", "gross", "sticky", "stains", "stained", "crumbs"], &[(CLEAN, -2.0)]),
    cue(&["dust", "dusty"], &[(CLEAN, -1.5)]),
    cue(&["dirty dishes", "dirty plates", "old food", "moldy"], &[(CLEAN, -3.0)]),
    cue(
        &["dishes", "plates", "bowls", "leftovers", "food", "takeout", "snacks", "snack bags", "tissues"],
        &[(CLEAN, -2.0)],
    ),
    cue(
        &[
            "cans",
            "energy drink cans",
            "energy drinks",
            "soda cans",
            "beer cans",
            "empty cans",
            "red bull cans",
            "monster cans",
        ],
        &[(CLEAN, -2.0)],
    ),
    cue(&["bottles", "empty bottles", "water bottles"], &[(CLEAN, -1.5)]),
    cue(
        &[
            "pizza boxes",
            "pizza box",
            "trash",
            "garbage",
            "rubbish",
            "wrappers",
            "takeout boxes",
            "chip bags",
        ],
        &[(CLEAN, -2.5)],
    ),
    cue(&["junk", "stuff everywhere", "papers everywhere", "piles", "laundry", "clothes"], &[(CLEAN, -1.5)]),
    cue(&["papers", "paperwork", "boxes"], &[(CLEAN, -1.0)]),
    cue(&["mugs", "cups", "coffee mugs", "empty mugs"], &[(CLEAN, -1.0)]),
    cue(
        &["desk mat", "deskmat", "desk pad", "mousepad", "mouse pad", "mouse mat", "large mousepad"],
        &[(CLEAN, 0.5), (VIBE, 0.5)],
    )
    .gear(),
    cue(
        &[
            "headphone stand",
            "headphone hook",
            "headset stand",
            "headset hanger",
            "desk shelf",
            "drawer",
            "drawers",
            "desk organizer",
            "desk organiser",
            "pegboard",
            "storage",
        ],
        &[(CLEAN, 1.0), (VIBE, 0.5)],
    )
    .gear(),
    // ---- Aesthetic vibe ----
    cue(
        &["plants", "plant", "succulent", "succulents", "monstera", "pothos", "cactus", "greenery", "bonsai"],
        &[(VIBE, 1.5)],
    )
    .role(Role::Plants),
    cue(&["wooden desk", "wood desk", "butcher block desk"], &[(VIBE, 1.0)]).gear(),
    cue(&["walnut", "oak", "butcher block", "bamboo", "solid wood", "wood"], &[(VIBE, 1.0)]),
    cue(
        &[
            "posters",
            "poster",
            "art",
            "artwork",
            "wall art",
            "prints",
            "paintings",
            "figures",
            "figurines",
            "action figures",
            "collectibles",
            "lego",
            "funko",
        ],
        &[(VIBE, 1.0)],
    ),
    cue(
        &[
            "theme",
            "themed",
            "color scheme",
            "colour scheme",
            "matching",
            "all white",
            "all black",
            "white setup",
            "black setup",
            "monochrome",
            "cohesive",
        ],
        &[(VIBE, 1.5)],
    ),
    cue(&["aesthetic", "vibe", "vibes", "cozy", "cosy", "sleek", "stylish"], &[(VIBE, 1.0)]),
    cue(&["shelf", "shelves", "display shelf", "floating shelves"], &[(VIBE, 0.5)]),
    cue(
        &[
            "mechanical keyboard",
            "custom keyboard",
            "keycaps",
            "custom keycaps",
            "artisan keycaps",
            "tkl",
            "tenkeyless",
            "split keyboard",
        ],
        &[(VIBE, 1.0)],
    )
    .gear(),
    cue(&["ugly", "hideous", "mismatched", "random stuff", "cardboard box"], &[(VIBE, -1.5)]),
    cue(&["boring", "bland", "plain", "dated"], &[(VIBE, -1.0)]),
    // ---- Chair and comfort ----
    cue(
        &[
            "herman miller",
            "aeron",
            "embody",
            "steelcase",
            "steelcase leap",
            "steelcase gesture",
            "humanscale",
            "haworth",
            "haworth fern",
        ],
        &[(CHAIR, 4.0)],
    )
    .gear()
    .role(Role::Seat(Seat::DeskChair)),
    cue(
        &[
            "ergonomic chair",
            "ergonomic office chair",
            "mesh chair",
            "mesh office chair",
            "ergo chair",
            "lumbar support",
            "adjustable lumbar",
        ],
        &[(CHAIR, 2.5)],
    )
    .gear()
    .role(Role::Seat(Seat::DeskChair)),
    cue(&["ergonomic", "ergonomics"], &[(CHAIR, 1.5)]),
    cue(&["secretlab", "secretlab titan", "titan evo", "noblechairs", "noble chairs"], &[(CHAIR, 2.5)])
        .gear()
        .role(Role::Seat(Seat::GamingChair)),
    cue(&["dxracer", "andaseat", "razer iskur", "corsair chair", "gaming chair"], &[(CHAIR, 1.5)])
        .gear()
        .role(Role::Seat(Seat::GamingChair)),
    cue(&["racing chair", "racing seat", "bucket seat", "sim rig seat"], &[(CHAIR, 1.0)])
        .gear()
        .role(Role::Seat(Seat::GamingChair)),
    cue(&["office chair", "desk chair", "task chair", "computer chair"], &[(CHAIR, 1.0)])
        .gear()
        .role(Role::Seat(Seat::DeskChair)),
    cue(&["chair", "chairs", "seat"], &[(CHAIR, 0.0)]).gear().role(Role::Seat(Seat::DeskChair)),
    cue(
        &[
            "kitchen chair",
            "dining chair",
            "wooden chair",
            "folding chair",
            "plastic chair",
            "metal chair",
            "patio chair",
            "garden chair",
            "stool",
            "bar stool",
            "bench",
            "crate",
        ],
        &[(CHAIR, -3.0)],
    )
    .gear()
    .role(Role::Seat(Seat::DeskChair)),
    cue(
        &[
            "couch",
            "sofa",
            "bean bag",
            "beanbag",
            "on my bed",
            "on the bed",
            "from bed",
            "from my bed",
            "on the floor sitting",
            "sit on the floor",
            "sitting on the floor",
        ],
        &[(CHAIR, -2.5)],
    )
    .role(Role::Seat(Seat::Couch)),
    cue(&["footrest", "foot rest"], &[(CHAIR, 1.0)]),
    cue(
        &["wrist rest", "wrist rests", "armrests", "headrest", "lumbar pillow", "seat cushion"],
        &[(CHAIR, 0.5)],
    ),
    cue(
        &[
            "standing desk",
            "sit stand",
            "sit stand desk",
            "height adjustable",
            "adjustable desk",
            "motorized desk",
            "electric desk",
            "flexispot",
        ],
        &[(CHAIR, 1.0), (VIBE, 0.5)],
    )
    .gear(),
    cue(&["comfortable", "comfy"], &[(CHAIR, 1.0)]),
    cue(&["uncomfortable", "wobbly", "creaky", "squeaky", "worn out", "peeling"], &[(CHAIR, -1.5)]),
    cue(&["back pain", "backache", "neck pain"], &[(CHAIR, -2.0)]),
    cue(&["broken chair"], &[(CHAIR, -2.0)]).gear(),
    // ---- Gear that only shows the text is about a setup ----
    gear(&[
        "gaming",
        "gamer",
        "battlestation",
        "battle station",
        "gaming setup",
        "gaming pc",
        "gaming rig",
        "rig",
        "pc",
        "desktop pc",
        "tower",
        "pc case",
        "gpu",
        "graphics card",
        "rtx",
        "console",
        "ps 5",
        "ps 4",
        "playstation",
        "xbox",
        "nintendo switch",
        "steam deck",
        "controller",
        "controllers",
    ])
    .role(Role::Gaming),
    gear(&[
        "keyboard",
        "keyboards",
        "mouse",
        "mice",
        "headset",
        "headphones",
        "speakers",
        "studio monitors",
        "microphone",
        "mic",
        "webcam",
        "desk",
        "desks",
        "setup",
        "workstation",
        "workspace",
        "home office",
        "l shaped desk",
        "corner desk",
        "keyboard tray",
    ]),
];

/// Words that negate the phrase that follows within a few words ("no", "don't have any").
pub(super) const NEGATORS: &[&str] = &[
    "no", "not", "without", "dont", "doesnt", "didnt", "havent", "hasnt", "hadnt", "isnt", "arent", "wasnt",
    "werent", "cant", "cannot", "never", "zero", "lack", "lacks", "nothing", "neither", "nor", "barely",
    "hardly", "nobody", "minus",
];

/// Words that negate the phrase just before them ("cable management: none").
pub(super) const POSTFIX_NEGATORS: &[&str] =
    &["none", "nonexistent", "non", "lacking", "missing", "absent", "nope", "nil", "nada"];

/// Words that make a phrase count more ("very messy", "full cable management").
pub(super) const STRONGER: &[&str] = &[
    "very",
    "super",
    "really",
    "extremely",
    "so",
    "incredibly",
    "insanely",
    "totally",
    "completely",
    "fully",
    "full",
    "absolutely",
    "ridiculously",
    "seriously",
    "crazy",
    "massive",
    "huge",
    "tons",
];

/// Words that make a phrase count less ("a bit messy", "kinda clean").
pub(super) const WEAKER: &[&str] = &[
    "bit",
    "little",
    "slightly",
    "somewhat",
    "kinda",
    "kind",
    "sort",
    "fairly",
    "mildly",
    "semi",
    "partly",
    "partially",
];

/// Judgements that make any phrase a bad sign ("terrible lighting", "the chair is awful").
pub(super) const PEJORATIVES: &[&str] = &[
    "bad",
    "poor",
    "terrible",
    "awful",
    "horrible",
    "horrendous",
    "crappy",
    "crap",
    "shitty",
    "lousy",
    "sucks",
    "mediocre",
    "weak",
    "worst",
    "janky",
    "flimsy",
    "rickety",
    "cheap",
    "broken",
];

/// Judgements that make a neutral or good phrase a good sign ("great chair").
pub(super) const APPRECIATIVES: &[&str] = &[
    "good",
    "great",
    "nice",
    "amazing",
    "awesome",
    "excellent",
    "perfect",
    "solid",
    "fantastic",
    "beautiful",
    "gorgeous",
    "incredible",
    "proper",
    "decent",
    "best",
    "love",
];

/// Words that end a negation's reach: what follows is a new thought ("no RGB, just a lamp").
pub(super) const CLAUSE_WORDS: &[&str] = &[
    "but", "and", "just", "only", "except", "though", "although", "yet", "while", "whereas", "however",
    "plus", "also", "then", "because", "since", "instead",
];

/// Words that keep a list going after a negation ("no dishes, cans or trash").
pub(super) const LIST_JOINERS: &[&str] = &["or", "nor", "any", "a", "an", "the"];

/// Words that carry a negation over to the next item of a list.
pub(super) const LIST_OR: &[&str] = &["or", "nor"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_phrase_is_listed_twice() {
        let mut seen = std::collections::BTreeSet::new();
        for cue in CUES {
            for phrase in cue.phrases {
                assert!(seen.insert(*phrase), "{phrase:?} is in the lexicon twice");
            }
        }
    }

    #[test]
    fn phrases_naming_gear_are_gear() {
        const GEAR_WORDS: &[&str] =
            &["desk", "monitor", "monitors", "chair", "keyboard", "cable", "cables", "pc"];
        for cue in CUES {
            for phrase in cue.phrases {
                let names_gear = phrase.split(' ').any(|word| GEAR_WORDS.contains(&word));
                assert!(!names_gear || cue.gear, "{phrase:?} names gear but its cue is not marked gear");
            }
        }
    }

    #[test]
    fn phrases_are_in_normal_form() {
        for cue in CUES {
            for phrase in cue.phrases {
                for word in phrase.split(' ') {
                    let tokens = super::super::tokens::tokenise(word);
                    let normal = word == "#" || (tokens.len() == 1 && tokens[0].text == word);
                    assert!(normal, "{word:?} of {phrase:?} is not how the tokeniser writes it");
                }
            }
        }
    }
}
