//! [`BotSpec`]: the built-in bots by name, and weights files by path, parsed from text and
//! built with a seed.

use super::file::{self, AgentFile};
use super::policy::{Policy, RandomBot};
use super::{heuristic, ismcts, net, net1, pimc};
use crate::rules::{Rules, quoted};
use std::path::Path;

/// A built-in bot by name: `"random"`, `"heuristic"`, `"ismcts"` / `"ismcts:N"` (N
/// simulations per decision, default [`ismcts::DEFAULT_SIMULATIONS`]), `"ismcts_net"` /
/// `"ismcts_net:N"` (the same search, its root favouring `net`'s move) or `"pimc"` /
/// `"pimc:N"` (N sampled worlds per decision, default [`pimc::DEFAULT_WORLDS`]), `"net"` (the
/// learned policy of every rule set) or `"net1"` (the first learned policies; only on the rules
/// they were trained for, see [`BotSpec::check_rules`]), or the path of a `.safetensors`
/// weights file ([`file`](mod@file): a flat network on the rules it records, or a card network).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    Random,
    Heuristic,
    Ismcts {
        simulations: u32,
    },
    /// ISMCTS whose root favours `net`'s move ([`ismcts::IsmctsBot::rooted_on_net`]).
    IsmctsNet {
        simulations: u32,
    },
    Pimc {
        worlds: u32,
    },
    /// PIMC seeing every hand ([`pimc::PimcBot::oracle`]); it reads hidden cards on purpose.
    Oracle {
        worlds: u32,
    },
    /// The learned network of every rule set ([`net`](super::net)).
    Net,
    /// The first learned networks, one per preset they were trained on ([`net`]).
    Net1,
    /// A weights file named by its path, read once per version ([`file::load`]).
    File(&'static AgentFile),
}

/// The weights file in a training run's folder (`eights train --out FOLDER`): the folder's
/// path, when it is no built-in bot's name, is a bot name for that file.
pub const RUN_AGENT_FILE: &str = "final.safetensors";

/// The built-in bots' names without their parameter, for a "did you mean".
const NAMES: [&str; 8] = ["random", "heuristic", "ismcts", "ismcts_net", "pimc", "oracle", "net", "net1"];

/// The names [`BotSpec::parse`] accepts, for error messages.
pub const BOT_SPEC_HELP: &str = "\"random\", \"heuristic\", \"ismcts\", \"ismcts:N\" (N simulations), \"ismcts_net\" or \"ismcts_net:N\" (ismcts whose root favours net's move), \"pimc\" or \"pimc:N\" (N worlds), \"oracle:N\" (pimc seeing every hand, for measurement), N in [1, 1000000], \"net\" (the learned bot, every rule set), \"net1\" (the first learned bots: three two-player presets) or the path of a .safetensors weights file (a trained network)";

impl BotSpec {
    /// Parse a bot name; the error says what was wrong and what is allowed.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        if file::is_file_name(text) {
            return file::load(text).map(BotSpec::File);
        }
        let t = text.trim().to_ascii_lowercase();
        let (head, arg) = match t.split_once(':') {
            Some((h, a)) => (h, Some(a)),
            None => (t.as_str(), None),
        };
        let count = |a: &str| match a.parse::<u32>() {
            Ok(k) if (1..=1_000_000).contains(&k) => Ok(k),
            _ => Err(format!(
                "bad count {} in bot name {}: expected an integer in [1, 1000000], e.g. \"{head}:400\"",
                quoted(a),
                quoted(text)
            )),
        };
        match (head, arg) {
            ("random", None) => Ok(BotSpec::Random),
            ("heuristic", None) => Ok(BotSpec::Heuristic),
            ("ismcts", None) => Ok(BotSpec::Ismcts { simulations: ismcts::DEFAULT_SIMULATIONS }),
            ("ismcts", Some(a)) => Ok(BotSpec::Ismcts { simulations: count(a)? }),
            ("ismcts_net", None) => Ok(BotSpec::IsmctsNet { simulations: ismcts::DEFAULT_SIMULATIONS }),
            ("ismcts_net", Some(a)) => Ok(BotSpec::IsmctsNet { simulations: count(a)? }),
            ("pimc", None) => Ok(BotSpec::Pimc { worlds: pimc::DEFAULT_WORLDS }),
            ("pimc", Some(a)) => Ok(BotSpec::Pimc { worlds: count(a)? }),
            ("oracle", None) => Ok(BotSpec::Oracle { worlds: pimc::DEFAULT_WORLDS }),
            ("oracle", Some(a)) => Ok(BotSpec::Oracle { worlds: count(a)? }),
            ("net", None) => Ok(BotSpec::Net),
            ("net1", None) => Ok(BotSpec::Net1),
            ("random" | "heuristic" | "net" | "net1", Some(_)) => {
                Err(format!("bot {head:?} takes no parameter (got {}); allowed bots: {BOT_SPEC_HELP}", quoted(text)))
            }
            _ => {
                let folder = Path::new(text.trim());
                let inside = folder.join(RUN_AGENT_FILE);
                if folder.is_dir() && inside.is_file() {
                    return file::load(&inside.to_string_lossy()).map(BotSpec::File);
                }
                Err(format!("unknown bot {}; allowed bots: {BOT_SPEC_HELP}", unknown_hint(text, head, arg)))
            }
        }
    }

    /// A fresh bot with its own seeded generator.
    pub fn build(&self, seed: u64) -> Box<dyn Policy> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Heuristic => Box::new(heuristic::HeuristicBot::new()),
            BotSpec::Ismcts { simulations } => Box::new(ismcts::IsmctsBot::new(simulations, seed)),
            BotSpec::IsmctsNet { simulations } => Box::new(ismcts::IsmctsBot::rooted_on_net(simulations, seed)),
            BotSpec::Pimc { worlds } => Box::new(pimc::PimcBot::new(worlds, seed)),
            BotSpec::Oracle { worlds } => Box::new(pimc::PimcBot::oracle(worlds, seed)),
            BotSpec::Net => Box::new(net::NetBot::new()),
            BotSpec::Net1 => Box::new(net1::Net1Bot::new()),
            BotSpec::File(f) => Box::new(f.build()),
        }
    }

    /// Whether this bot can play `rules`: every bot can, except `net1`, which plays only the
    /// rules it was trained for (the error names them).
    pub fn check_rules(&self, rules: &Rules) -> Result<(), String> {
        match self {
            BotSpec::Net | BotSpec::IsmctsNet { .. } => net::weights().map(|_| ()),
            BotSpec::Net1 => net1::policy_for(rules).map(|_| ()),
            BotSpec::File(f) => f.check_rules(rules),
            _ => Ok(()),
        }
    }

    /// Whether the bot plays every rule set: all but `net1` and a flat network's file, which
    /// play only the rules they were trained for ([`BotSpec::check_rules`] says which).
    pub fn plays_every_rule_set(&self) -> bool {
        match self {
            BotSpec::Net1 => false,
            BotSpec::File(f) => f.plays_every_rule_set(),
            _ => true,
        }
    }

    /// The canonical name (parses back to the same spec; a run folder's file by its own path).
    pub fn name(&self) -> String {
        match self {
            BotSpec::Random => "random".into(),
            BotSpec::Heuristic => "heuristic".into(),
            BotSpec::Ismcts { simulations } => format!("ismcts:{simulations}"),
            BotSpec::IsmctsNet { simulations } => format!("ismcts_net:{simulations}"),
            BotSpec::Pimc { worlds } => format!("pimc:{worlds}"),
            BotSpec::Oracle { worlds } => format!("oracle:{worlds}"),
            BotSpec::Net => "net".into(),
            BotSpec::Net1 => "net1".into(),
            BotSpec::File(f) => f.path.clone(),
        }
    }
}

/// An unknown bot name, quoted, and what it looks like it meant: a built-in bot's name
/// misspelt (`"heuristc" (did you mean "heuristic"?)`, its parameter kept), or, for a path
/// (named whole), what is there: a folder without its run's file, a file of another kind,
/// nothing, a misspelt suffix.
fn unknown_hint(text: &str, head: &str, arg: Option<&str>) -> String {
    let t = text.trim();
    let path = Path::new(t);
    let extension = t.rsplit_once('.').map(|(_, e)| e).filter(|e| e.starts_with(|c: char| c.is_ascii_alphabetic()));
    if t.contains(['/', '\\']) || extension.is_some() || path.is_dir() {
        let named = file::named_path(t);
        if path.is_dir() {
            return format!(
                "{named}: a folder without {RUN_AGENT_FILE} (a training run's folder, eights train --out, plays the file it holds)"
            );
        }
        if path.is_file() {
            return format!("{named}: a file, but not a weights file (a bot file's name ends in .safetensors)");
        }
        let stem = &t[..t.len() - extension.map_or(0, |e| e.len() + 1)];
        let misspelt =
            extension.is_some_and(|e| strsim::damerau_levenshtein(&e.to_ascii_lowercase(), "safetensors") <= 3);
        return if misspelt {
            format!("{named}: no such file (did you mean {}?)", file::named_path(&format!("{stem}.safetensors")))
        } else {
            format!("{named}: no such file or folder")
        };
    }
    let close = NAMES
        .iter()
        .map(|n| (strsim::damerau_levenshtein(head, n), *n))
        .filter(|&(d, n)| d > 0 && d <= (n.len() / 3).max(1))
        .min_by_key(|&(d, _)| d);
    match close {
        Some((_, n)) => {
            format!("{} (did you mean {}?)", quoted(text), quoted(&arg.map_or(n.to_string(), |a| format!("{n}:{a}"))))
        }
        None => quoted(text),
    }
}
