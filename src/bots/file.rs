//! Bots read from a weights file named by its path: wherever a bot name is accepted, the path
//! of a `.safetensors` file plays the network it holds, in Rust, without PyTorch.
//!
//! Two formats play: `eights-net-v1` ([`net1`]: flat networks, each on the rules it records,
//! `P.rules`, or the preset it is named after; the trainer writes one policy, `agent`, with its
//! rules and table) and `eights-net-v2` / `eights-net-v3` ([`net`]: the card network of every
//! rule set and table size). Anything else is an error naming the file and the formats allowed.
//!
//! A file is parsed once per version: [`load`] keeps each (path, modification time, length) it
//! has read for the life of the process, so that a `BotSpec` naming it stays a plain
//! `Copy` value (a reference) that the hot paths pass around for free. A file rewritten in
//! place is read again (its new version is another entry); the old versions stay in memory.

use super::policy::Policy;
use super::{net, net1};
use safetensors::SafeTensors;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

/// The network of a file.
pub enum FileNet {
    /// A flat network (`eights-net-v1`): plays only the rules it records.
    Flat(net1::Net1Weights),
    /// The card network (`eights-net-v2` or `eights-net-v3`): plays every rule set.
    Card(Box<net::CardNet>),
}

/// A weights file read by [`load`], alive for the life of the process.
pub struct AgentFile {
    /// The file's absolute path (the bot's canonical name).
    pub path: String,
    pub net: FileNet,
    /// The file's metadata (its format, rules, and what the trainer recorded).
    pub metadata: HashMap<String, String>,
}

// One `AgentFile` per file version ([`load`]): the same file is the same address.
impl PartialEq for AgentFile {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}
impl Eq for AgentFile {}
impl std::hash::Hash for AgentFile {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self as *const AgentFile as usize).hash(h);
    }
}
impl std::fmt::Debug for AgentFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.net {
            FileNet::Flat(_) => net1::FORMAT,
            FileNet::Card(_) => net::FORMAT,
        };
        write!(f, "AgentFile({:?}, {kind})", self.path)
    }
}

/// The formats a bot file may have, in words (for error messages).
pub const FILE_FORMATS_HELP: &str = "\"eights-net-v1\" (a flat network, played on the rules it records) or \
     \"eights-net-v2\" / \"eights-net-v3\" (the card network, every rule set)";

/// Whether a bot name is a file's path: it ends in `.safetensors` (any case).
pub fn is_file_name(text: &str) -> bool {
    let t = text.trim();
    t.len() > ".safetensors".len()
        && t.get(t.len() - ".safetensors".len()..).is_some_and(|e| e.eq_ignore_ascii_case(".safetensors"))
}

/// A path as an error names it: whole up to the longest a file system takes (PATH_MAX), cut
/// past it.
pub fn named_path(path: &str) -> String {
    if path.len() > 4096 { crate::rules::quoted(path) } else { format!("{path:?}") }
}

type Key = (PathBuf, Option<SystemTime>, u64);

pub use super::tensors::MAX_FILE_BYTES;

/// The file at `path`, read and checked once per version; the error names the path and what
/// is wrong (missing, a folder, not a safetensors file, a format no bot plays, a bad tensor).
pub fn load(path: &str) -> Result<&'static AgentFile, String> {
    static CACHE: OnceLock<Mutex<HashMap<Key, &'static AgentFile>>> = OnceLock::new();
    let shown = path.trim();
    let named = named_path(shown);
    let err = |m: String| format!("bot file {named}: {m}");
    let (full, meta) = super::tensors::checked_file(shown.as_ref(), "a bot file").map_err(err)?;
    let key = (full, meta.modified().ok(), meta.len());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(&f) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(f);
    }
    let bytes = std::fs::read(&key.0).map_err(|e| err(format!("cannot read it ({e})")))?;
    let file = parse(&bytes, key.0.to_string_lossy().into_owned()).map_err(err)?;
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    // Another thread may have read the same version meanwhile: keep the first.
    Ok(*map.entry(key).or_insert_with(|| Box::leak(Box::new(file))))
}

/// A file's bytes as a bot (`path`: its name in the bot's errors and as the bot's name).
pub fn parse(bytes: &[u8], path: String) -> Result<AgentFile, String> {
    let (_, header) = SafeTensors::read_metadata(bytes)
        .map_err(|e| format!("not a safetensors file ({e}); a bot file has format {FILE_FORMATS_HELP}"))?;
    let metadata = header.metadata().clone().unwrap_or_default();
    let net = match metadata.get("format").map(String::as_str) {
        Some(net1::FORMAT) => {
            let mut w = net1::Net1Weights::parse(bytes)?;
            w.label = format!("bot file {path:?}");
            FileNet::Flat(w)
        }
        Some(net::FORMAT | net::FORMAT_ATTENTION) => FileNet::Card(Box::new(net::CardNet::parse(bytes)?)),
        Some(other) => {
            return Err(format!("its format {other:?} is not a bot's; a bot file has format {FILE_FORMATS_HELP}"));
        }
        None => return Err(format!("its metadata names no format; a bot file has format {FILE_FORMATS_HELP}")),
    };
    Ok(AgentFile { path, net, metadata })
}

impl AgentFile {
    /// Whether the bot can play `rules` (a flat network only the rules it records; the error
    /// names the file, its rules and its table).
    pub fn check_rules(&self, rules: &crate::rules::Rules) -> Result<(), String> {
        match &self.net {
            FileNet::Flat(w) => w.for_rules(rules).map(|_| ()),
            FileNet::Card(_) => Ok(()),
        }
    }

    /// Whether the file plays every rule set (the card network) or only the rules it records.
    pub fn plays_every_rule_set(&self) -> bool {
        matches!(self.net, FileNet::Card(_))
    }

    /// A fresh bot playing the file's network.
    pub fn build(&'static self) -> FileBot {
        let bot: Box<dyn Policy> = match &self.net {
            FileNet::Flat(w) => Box::new(net1::Net1Bot::of(w)),
            FileNet::Card(n) => Box::new(net::NetBot::of(n)),
        };
        FileBot { file: self, bot }
    }
}

/// A file's network as a [`Policy`] (named by the file's path).
pub struct FileBot {
    file: &'static AgentFile,
    bot: Box<dyn Policy>,
}

impl Policy for FileBot {
    fn act(&mut self, g: &crate::game::Game) -> Option<usize> {
        self.bot.act(g)
    }
    fn name(&self) -> String {
        self.file.path.clone()
    }
}
