//! PyO3 bindings of [`crate::vec_env`]: `eights._core.VecEnvCore`, the engine under the
//! Python `eights.VecEnv`. It owns its numpy output buffers (allocated once, rewritten in
//! place by every call) and releases the GIL while the batch steps.

use super::args::{self, int_in};
use super::convert::{IllegalActionError, array1, from_json};
use super::interrupt::run_interruptible_on;
use super::rules::rules_arg;
use crate::action::NUM_ACTIONS;
use crate::game::Game;
use crate::observation::OBS_SIZE;
use crate::rules::{RULES_SIZE, quoted};
use crate::vec_env::{
    Autoreset, Config, Mode, ObsValue, Opponents, Outputs, ResetSeeds, RulesSource, VecEnv, VecEnvError,
};
use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyReadwriteArray1};

/// Games from which a reset or step with built-in opponents runs under Ctrl-C (a thread waits
/// on the work, a few microseconds a call): at 4,096 games such a call takes milliseconds.
const INTERRUPTIBLE_ENVS: usize = 4096;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

fn vec_err(e: VecEnvError) -> PyErr {
    match e {
        VecEnvError::Illegal { .. } => IllegalActionError::new_err(e.to_string()),
        VecEnvError::NotReset | VecEnvError::Opponents { .. } | VecEnvError::Stopped => {
            PyRuntimeError::new_err(e.to_string())
        }
        VecEnvError::OutOfMemory { .. } => PyMemoryError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A copy of a one-dimensional numpy array argument of `T`'s dtype.
fn copied<T: numpy::Element + Copy>(a: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<T>> {
    let arr = super::convert::array_arg::<T, numpy::Ix1>(a, name, "(num_envs,)")?;
    let arr =
        arr.try_readonly().map_err(|_| PyRuntimeError::new_err(format!("{name} is borrowed mutably elsewhere")))?;
    Ok(arr.as_array().to_vec())
}

/// Observation buffers of one dtype.
enum ObsBuf {
    F32(Py<PyArray2<f32>>, Py<PyArray2<f32>>),
    U8(Py<PyArray2<u8>>, Py<PyArray2<u8>>),
    I8(Py<PyArray2<i8>>, Py<PyArray2<i8>>),
}

#[derive(Copy, Clone)]
enum Call<'a> {
    Reset(ResetSeeds<'a>, Option<&'a [bool]>),
    Step(&'a [i64]),
    Opponents(&'a [i64]),
}

/// The batched engine; see `eights.VecEnv` for the documented Python API.
#[pyclass(name = "VecEnvCore", module = "eights._core")]
pub struct PyVecEnvCore {
    env: VecEnv,
    obs: ObsBuf,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_act: Py<PyArray1<i32>>,
    actions: Py<PyArray1<i64>>,
    /// Each game's rules id (always written: a list index or a rule-space seed).
    rules_id: Py<PyArray1<u64>>,
    /// With `obs_rules`: each game's rules encoding, and the ended episodes' (same_step).
    rules: Option<RulesArrays>,
    /// The actions of the call in progress, copied from the caller's array (allocated
    /// once: a step allocates nothing).
    staged: Vec<i64>,
}

/// With `obs_rules`: each game's rules encoding, and the ended episodes' (same_step).
type RulesArrays = (Py<PyArray2<f32>>, Py<PyArray2<f32>>);

/// `opponents`: `"random"`, `"external"`, or a list of one built-in bot name per seat (the
/// learner's entry `None`), played inside the step.
fn opponents_arg(opponents: Option<&Bound<'_, PyAny>>, n: usize, learner: usize) -> PyResult<Opponents> {
    const WHAT: &str = "\"random\", \"external\" or a list of bot names per seat";
    let Some(opponents) = opponents else { return Ok(Opponents::Random) };
    if let Some(text) = args::text_if_str(opponents, "opponents", WHAT)? {
        return match text.as_str() {
            "random" => Ok(Opponents::Random),
            "external" => Ok(Opponents::External),
            _ => Err(PyValueError::new_err(format!("opponents must be {WHAT}, got {}", quoted(&text)))),
        };
    }
    let names: Vec<Option<String>> = opponents.extract().map_err(|_| args::wrong_type(opponents, "opponents", WHAT))?;
    if names.len() != n {
        return Err(PyValueError::new_err(format!("opponents must name one bot per seat ({n}), got {}", names.len())));
    }
    let mut seats = [None; crate::rules::MAX_PLAYERS];
    for (p, name) in names.iter().enumerate().filter(|&(p, _)| p != learner) {
        let name = name.as_deref().ok_or_else(|| PyValueError::new_err(format!("seat {p} has no bot")))?;
        seats[p] = Some(crate::bots::BotSpec::parse(name).map_err(PyValueError::new_err)?);
    }
    Ok(Opponents::Bots(seats))
}

/// The values of `VecEnv`'s text arguments, in words.
const AUTORESETS: &str = "\"next_step\" or \"same_step\"";
const REWARDS: &str = "\"win_loss\" or \"score\"";
const OBS_DTYPES: &str = "\"float32\", \"uint8\" or \"int8\"";

/// Extractors of `VecEnv`'s text arguments: a value of another type, or a str that is not
/// valid text, is an error naming the argument and its values.
fn autoreset_arg(o: &Bound<'_, PyAny>) -> PyResult<String> {
    args::text(o, "autoreset", AUTORESETS)
}

fn reward_arg(o: &Bound<'_, PyAny>) -> PyResult<String> {
    args::text(o, "reward", REWARDS)
}

fn obs_dtype_arg(o: &Bound<'_, PyAny>) -> PyResult<String> {
    args::text(o, "obs_dtype", OBS_DTYPES)
}

/// The `bot` argument of `bot_actions` and `bot_policies`: a built-in bot's name.
fn bot_arg(bot: &Bound<'_, PyAny>) -> PyResult<crate::bots::BotSpec> {
    let name = args::text(bot, "bot", "a built-in bot name (str) such as \"heuristic\"")?;
    crate::bots::BotSpec::parse(&name).map_err(PyValueError::new_err)
}

/// A zeroed array allocated through `numpy.zeros`, so a failed allocation is the
/// `MemoryError` numpy raises (the numpy crate's constructors panic on it instead).
fn zeros<'py, T: Element, A: pyo3::PyTypeCheck>(py: Python<'py>, shape: &[usize]) -> PyResult<Py<A>> {
    let a = py.import("numpy")?.call_method1("zeros", (shape.to_vec(), numpy::dtype::<T>(py)))?;
    Ok(a.cast_into::<A>()?.unbind())
}

fn zeros2<T: Element>(py: Python<'_>, n: usize, m: usize) -> PyResult<Py<PyArray2<T>>> {
    zeros::<T, PyArray2<T>>(py, &[n, m])
}

fn zeros1<T: Element>(py: Python<'_>, n: usize) -> PyResult<Py<PyArray1<T>>> {
    zeros::<T, PyArray1<T>>(py, &[n])
}

/// The reusable copy of one call's actions, reserved fallibly (MemoryError, not an abort).
fn staged_actions(n: usize) -> PyResult<Vec<i64>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| PyMemoryError::new_err(format!("cannot allocate actions for {n} games")))?;
    Ok(v)
}

impl PyVecEnvCore {
    fn run<O: ObsValue + Element>(
        &mut self,
        py: Python<'_>,
        obs: &Py<PyArray2<O>>,
        fin: &Py<PyArray2<O>>,
        call: Call<'_>,
    ) -> PyResult<()> {
        let busy = |_| PyRuntimeError::new_err("an output buffer is borrowed elsewhere; cannot write to it now");
        let mut o = obs.bind(py).try_readwrite().map_err(busy)?;
        let mut f = fin.bind(py).try_readwrite().map_err(busy)?;
        let mut m = self.mask.bind(py).try_readwrite().map_err(busy)?;
        let mut r = self.rewards.bind(py).try_readwrite().map_err(busy)?;
        let mut t = self.terminated.bind(py).try_readwrite().map_err(busy)?;
        let mut u = self.truncated.bind(py).try_readwrite().map_err(busy)?;
        let mut a = self.to_act.bind(py).try_readwrite().map_err(busy)?;
        let mut id = self.rules_id.bind(py).try_readwrite().map_err(busy)?;
        let mut enc = match &self.rules {
            Some((e, f)) => {
                Some((e.bind(py).try_readwrite().map_err(busy)?, f.bind(py).try_readwrite().map_err(busy)?))
            }
            None => None,
        };
        let contiguous = |_| PyRuntimeError::new_err("output buffers must stay C-contiguous");
        let (rules, final_rules) = match enc.as_mut() {
            Some((e, f)) => (Some(e.as_slice_mut().map_err(contiguous)?), Some(f.as_slice_mut().map_err(contiguous)?)),
            None => (None, None),
        };
        let out = Outputs {
            obs: o.as_slice_mut().map_err(contiguous)?,
            mask: m.as_slice_mut().map_err(contiguous)?,
            rewards: r.as_slice_mut().map_err(contiguous)?,
            terminated: t.as_slice_mut().map_err(contiguous)?,
            truncated: u.as_slice_mut().map_err(contiguous)?,
            to_act: a.as_slice_mut().map_err(contiguous)?,
            final_obs: Some(f.as_slice_mut().map_err(contiguous)?),
            rules,
            rules_id: Some(id.as_slice_mut().map_err(contiguous)?),
            final_rules,
        };
        let env = &mut self.env;
        // Built-in search opponents take seconds a call, and any built-in opponents of a large
        // batch (a step of 262,144 games against `net` took 9 s): Ctrl-C stops them (the batch
        // is then to be reset). The other calls take milliseconds and run without a thread to
        // wait on. The flag is cleared before the work starts either way, so that no Ctrl-C
        // during it is lost and none from an earlier call stops it.
        let interruptible = env.searches() || (env.plays_bots() && env.num_envs() >= INTERRUPTIBLE_ENVS);
        let flag = env.stop_flag();
        flag.clear();
        let work = move || match call {
            Call::Reset(seeds, mask) => env.reset_games(seeds, mask, out),
            Call::Step(x) => env.step(x, out),
            Call::Opponents(x) => env.step_opponents(x, out),
        };
        if interruptible {
            run_interruptible_on(py, &flag, work)?.map_err(vec_err)
        } else {
            py.detach(work).map_err(vec_err)
        }
    }

    fn dispatch(&mut self, py: Python<'_>, call: Call<'_>) -> PyResult<()> {
        match &self.obs {
            ObsBuf::F32(o, f) => {
                let (o, f) = (o.clone_ref(py), f.clone_ref(py));
                self.run(py, &o, &f, call)
            }
            ObsBuf::U8(o, f) => {
                let (o, f) = (o.clone_ref(py), f.clone_ref(py));
                self.run(py, &o, &f, call)
            }
            ObsBuf::I8(o, f) => {
                let (o, f) = (o.clone_ref(py), f.clone_ref(py));
                self.run(py, &o, &f, call)
            }
        }
    }

    fn with_actions(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>, opponents: bool) -> PyResult<()> {
        let n = self.env.num_envs();
        let arr = super::convert::array_arg::<i64, numpy::Ix1>(actions, "actions", &format!("({n},)"))?;
        let arr = arr.try_readonly().map_err(|_| PyRuntimeError::new_err("actions is borrowed mutably elsewhere"))?;
        // A copy: the GIL is released while the batch steps, and another thread could write
        // to the caller's array between the validation and the use of an action.
        let src = arr.as_slice().map_err(|_| PyValueError::new_err("actions must be C-contiguous"))?;
        if src.len() != n {
            return Err(vec_err(VecEnvError::Length { what: "actions", expected: n, got: src.len() }));
        }
        let mut s = std::mem::take(&mut self.staged);
        s.clear();
        s.extend_from_slice(src);
        drop(arr);
        let r = if opponents { self.dispatch(py, Call::Opponents(&s)) } else { self.dispatch(py, Call::Step(&s)) };
        self.staged = s;
        r
    }
}

#[pymethods]
impl PyVecEnvCore {
    /// `VecEnvCore(preset, num_envs, num_players=2, rules=None, num_threads=0,
    /// autoreset="next_step", self_play=False, learner_seat=0, opponents="random" (or
    /// "external", or a built-in bot name per seat, the learner's None),
    /// reward="win_loss", obs_dtype="float32")`; `preset` is a preset name or an `eights.Rules`.
    #[new]
    #[pyo3(signature = (preset, num_envs, num_players=2, rules=None, num_threads=0, autoreset=String::from("next_step"), self_play=false, learner_seat=0, opponents=None, reward=String::from("win_loss"), obs_dtype=String::from("float32"), obs_rules=false))]
    #[pyo3(
        text_signature = "(preset, num_envs, num_players=2, rules=None, num_threads=0, autoreset='next_step', self_play=False, learner_seat=0, opponents=None, reward='win_loss', obs_dtype='float32', obs_rules=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        preset: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::num_envs)] num_envs: usize,
        #[pyo3(from_py_with = args::num_players)] num_players: usize,
        rules: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::num_threads)] num_threads: usize,
        #[pyo3(from_py_with = autoreset_arg)] autoreset: String,
        self_play: bool,
        #[pyo3(from_py_with = args::learner_seat)] learner_seat: usize,
        opponents: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = reward_arg)] reward: String,
        #[pyo3(from_py_with = obs_dtype_arg)] obs_dtype: String,
        obs_rules: bool,
    ) -> PyResult<Self> {
        let source = rules_source(py, preset, num_players, rules)?;
        let autoreset = match autoreset.as_str() {
            "next_step" => Autoreset::NextStep,
            "same_step" => Autoreset::SameStep,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "autoreset must be {AUTORESETS}, got {}",
                    quoted(&autoreset)
                )));
            }
        };
        let opponents = opponents_arg(opponents, num_players, learner_seat)?;
        let n = num_players;
        // Checked in self-play too (where it is unused) so a bad value is never silent.
        if learner_seat >= n {
            return Err(PyValueError::new_err(format!("learner_seat must be in [0, {}], got {learner_seat}", n - 1)));
        }
        let mode = if self_play { Mode::SelfPlay } else { Mode::Learner { seat: learner_seat, opponents } };
        let score_rewards = match reward.as_str() {
            "win_loss" => false,
            "score" => true,
            _ => return Err(PyValueError::new_err(format!("reward must be {REWARDS}, got {}", quoted(&reward)))),
        };
        let cfg = Config { num_envs, num_threads, autoreset, mode, score_rewards };
        let env = VecEnv::with_source(source, cfg).map_err(vec_err)?;
        let ne = env.num_envs();
        let obs = match obs_dtype.as_str() {
            "float32" => ObsBuf::F32(zeros2(py, ne, OBS_SIZE)?, zeros2(py, ne, OBS_SIZE)?),
            "uint8" => ObsBuf::U8(zeros2(py, ne, OBS_SIZE)?, zeros2(py, ne, OBS_SIZE)?),
            "int8" => ObsBuf::I8(zeros2(py, ne, OBS_SIZE)?, zeros2(py, ne, OBS_SIZE)?),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "obs_dtype must be {OBS_DTYPES}, got {}",
                    quoted(&obs_dtype)
                )));
            }
        };
        let width = env.reward_width();
        Ok(PyVecEnvCore {
            obs,
            mask: zeros2(py, ne, NUM_ACTIONS)?,
            rewards: zeros2(py, ne, width)?,
            terminated: zeros1(py, ne)?,
            truncated: zeros1(py, ne)?,
            to_act: zeros1(py, ne)?,
            actions: zeros1(py, ne)?,
            rules_id: zeros1(py, ne)?,
            rules: if obs_rules { Some((zeros2(py, ne, RULES_SIZE)?, zeros2(py, ne, RULES_SIZE)?)) } else { None },
            staged: staged_actions(ne)?,
            env,
        })
    }

    /// Reseed and deal every game (game i from a seed derived from (seed, i)); with `seeds`
    /// (uint64, one per game) game i is dealt from (seeds[i], 0) instead; with `mask` (bool,
    /// one per game) only the games it marks are reset (see `eights.VecEnv.reset`).
    #[pyo3(signature = (seed, seeds=None, mask=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        seeds: Option<Bound<'_, PyAny>>,
        mask: Option<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let seed = int_in(seed, "seed", 0u64, u64::MAX)?;
        // Copies: the GIL is released while the games are dealt (as for the actions).
        let seeds = seeds.filter(|a| !a.is_none()).map(|a| copied::<u64>(&a, "seeds")).transpose()?;
        let mask = mask.filter(|a| !a.is_none()).map(|a| copied::<bool>(&a, "reset_mask")).transpose()?;
        let seeds = match &seeds {
            Some(v) => ResetSeeds::PerGame(v),
            None => ResetSeeds::Batch(seed),
        };
        self.dispatch(py, Call::Reset(seeds, mask.as_deref()))
    }

    /// Step with one int64 action per game (see `eights.VecEnv.step`).
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        self.with_actions(py, actions, false)
    }

    /// External opponents: play the games whose seat to act is an opponent.
    fn step_opponents(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        self.with_actions(py, actions, true)
    }

    /// Uniform legal actions drawn in Rust, written into `out` (int64, one per game; default:
    /// an internal buffer) and returned.
    #[pyo3(signature = (out=None))]
    fn random_actions<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let n = self.env.num_envs();
        let arr = match out.filter(|o| !o.is_none()) {
            Some(o) => super::convert::array_arg::<i64, numpy::Ix1>(&o, "out", &format!("({n},)"))?,
            None => self.actions.bind(py).clone(),
        };
        let got = numpy::PyUntypedArrayMethods::len(&arr);
        if got != n {
            return Err(PyValueError::new_err(format!("out must have {n} elements (one per game), got {got}")));
        }
        {
            let mut w: PyReadwriteArray1<i64> = arr.try_readwrite().map_err(|_| {
                PyValueError::new_err(
                    "out must be a writeable array not borrowed elsewhere (it is read-only or in use)",
                )
            })?;
            let s = w.as_slice_mut().map_err(|_| PyValueError::new_err("out must be C-contiguous"))?;
            let env = &mut self.env;
            py.detach(move || env.random_actions(s)).map_err(vec_err)?;
        }
        Ok(arr)
    }

    /// The action built-in bot `bot` ("heuristic", "random", "ismcts:N", "pimc:N") chooses
    /// for the seat to act in each game of `rows` (int64 game indices); -1 where the
    /// episode is over. See `VecEnv::bot_actions`. With `seed` (the card network only), each
    /// move is drawn from the network's policy (`VecEnv::bot_sampled_actions`).
    #[pyo3(signature = (bot, rows, seed=None))]
    fn bot_actions<'py>(
        &mut self,
        py: Python<'py>,
        bot: &Bound<'py, PyAny>,
        rows: &Bound<'py, PyAny>,
        seed: Option<u64>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let spec = bot_arg(bot)?;
        let rows = super::convert::array_arg::<i64, numpy::Ix1>(rows, "rows", "(K,) of game indices")?;
        let rows = rows.try_readonly().map_err(|_| PyRuntimeError::new_err("rows is borrowed mutably elsewhere"))?;
        let rows = rows.as_slice().map_err(|_| PyValueError::new_err("rows must be C-contiguous"))?;
        // Copies sized by the caller's array: reserved fallibly (MemoryError, not an abort).
        let oom = |_| PyMemoryError::new_err(format!("cannot allocate bot actions for {} rows", rows.len()));
        let mut copy = Vec::new();
        copy.try_reserve_exact(rows.len()).map_err(oom)?;
        copy.extend_from_slice(rows);
        let mut out = Vec::new();
        out.try_reserve_exact(rows.len()).map_err(oom)?;
        out.resize(rows.len(), 0i64);
        let env = &mut self.env;
        let stop = env.stop_flag();
        bot_call(py, spec, &stop, || match seed {
            None => env.bot_actions(spec, &copy, &mut out),
            Some(seed) => env.bot_sampled_actions(spec, &copy, seed, &mut out),
        })?;
        array1(py, out.len(), out)
    }

    /// The policy of built-in bot `bot` for the seat to act in each game of `rows`: a
    /// `(K, NUM_ACTIONS)` float32 array, `ismcts:N`'s root visit shares, a one-hot row of the
    /// action for every other bot, zeros where the episode is over. `root` (int64, one per
    /// row, optional): the action each search's root favours in the heuristic's place (-1:
    /// the heuristic's). See `VecEnv::bot_policies`.
    #[pyo3(signature = (bot, rows, root=None))]
    fn bot_policies<'py>(
        &mut self,
        py: Python<'py>,
        bot: &Bound<'py, PyAny>,
        rows: &Bound<'py, PyAny>,
        root: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let spec = bot_arg(bot)?;
        let rows = super::convert::array_arg::<i64, numpy::Ix1>(rows, "rows", "(K,) of game indices")?;
        let rows = rows.try_readonly().map_err(|_| PyRuntimeError::new_err("rows is borrowed mutably elsewhere"))?;
        let rows = rows.as_slice().map_err(|_| PyValueError::new_err("rows must be C-contiguous"))?;
        let root = match root {
            Some(r) => {
                Some(super::convert::array_arg::<i64, numpy::Ix1>(r, "root", "(K,) of action ids, -1 for none")?)
            }
            None => None,
        };
        let root = match &root {
            Some(r) => {
                Some(r.try_readonly().map_err(|_| PyRuntimeError::new_err("root is borrowed mutably elsewhere"))?)
            }
            None => None,
        };
        let root = match &root {
            Some(r) => Some(r.as_slice().map_err(|_| PyValueError::new_err("root must be C-contiguous"))?),
            None => None,
        };
        if let Some(r) = root.filter(|r| r.len() != rows.len()) {
            return Err(PyValueError::new_err(format!(
                "root must have one entry per row ({}), got {}",
                rows.len(),
                r.len()
            )));
        }
        let n = crate::action::NUM_ACTIONS;
        let oom = |_| PyMemoryError::new_err(format!("cannot allocate bot policies for {} rows", rows.len()));
        let cells = rows.len().checked_mul(n).ok_or_else(|| PyMemoryError::new_err("too many rows"))?;
        let mut copy = Vec::new();
        copy.try_reserve_exact(rows.len()).map_err(oom)?;
        copy.extend_from_slice(rows);
        let mut out = Vec::new();
        out.try_reserve_exact(cells).map_err(oom)?;
        out.resize(cells, 0f32);
        let env = &mut self.env;
        let stop = env.stop_flag();
        bot_call(py, spec, &stop, || env.bot_policies(spec, &copy, root, &mut out))?;
        super::convert::array2(py, copy.len(), n, out)
    }

    /// True if some game waits for an opponent's action (external opponents).
    fn opponents_to_act(&self) -> bool {
        self.env.opponents_to_act()
    }

    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.obs {
            ObsBuf::F32(o, _) => o.bind(py).clone().into_any(),
            ObsBuf::U8(o, _) => o.bind(py).clone().into_any(),
            ObsBuf::I8(o, _) => o.bind(py).clone().into_any(),
        }
    }
    #[getter]
    fn final_observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.obs {
            ObsBuf::F32(_, f) => f.bind(py).clone().into_any(),
            ObsBuf::U8(_, f) => f.bind(py).clone().into_any(),
            ObsBuf::I8(_, f) => f.bind(py).clone().into_any(),
        }
    }
    /// With `obs_rules=True`: each game's rules encoding (float32, (num_envs, RULES_SIZE)),
    /// rewritten only when the game is dealt; `None` otherwise.
    #[getter]
    fn rules_encodings<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<f32>>> {
        self.rules.as_ref().map(|(e, _)| e.bind(py).clone())
    }
    /// With `obs_rules=True` and same_step autoreset: the rules encoding of each episode that
    /// ended in the last step (beside `final_observations`).
    #[getter]
    fn final_rules_encodings<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<f32>>> {
        self.rules.as_ref().map(|(_, f)| f.bind(py).clone())
    }
    /// Each game's rules id (uint64): its index in the list of rule sets, or the rule-space
    /// seed of its draw (0 for one rule set); written when the game is dealt.
    #[getter]
    fn rules_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        self.rules_id.bind(py).clone()
    }
    #[getter]
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }
    /// Shape (num_envs, 1) in learner modes, (num_envs, num_players) in self-play.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    /// Seat to act per game, -1 when its episode is over.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.to_act.bind(py).clone()
    }
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.env.num_players()
    }
    #[getter]
    fn num_threads(&self) -> usize {
        self.env.num_threads()
    }
    /// Bytes of Rust state per game (the game, its bot streams, bookkeeping).
    #[getter]
    fn state_bytes_per_env(&self) -> usize {
        VecEnv::state_bytes_per_env()
    }
    /// Game `i` as a standalone `eights.Game` snapshot (a copy, for inspection).
    fn game_dict<'py>(&self, py: Python<'py>, i: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        // num_envs is in [1, MAX_NUM_ENVS]: the bound is at least 0 and `i` fits usize.
        let i = int_in(i, "env index", 0u64, self.env.num_envs() as u64 - 1)? as usize;
        from_json(py, &self.env.game(i).snapshot())
    }
}

/// The rules of a batch: a preset name or an `eights.Rules` (with `rules` overrides), a list
/// of them (drawn per episode), or a `RuleSpaceCore` (drawn per episode; `rules` must be
/// `None`).
fn rules_source(
    py: Python<'_>,
    preset: &Bound<'_, PyAny>,
    num_players: usize,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<RulesSource> {
    if let Ok(space) = preset.cast::<super::rules::PyRuleSpace>() {
        if rules.is_some_and(|r| !r.is_none()) {
            return Err(PyValueError::new_err("rule overrides cannot be applied to a rule space"));
        }
        return RulesSource::space(space.get().space.clone(), num_players).map_err(vec_err);
    }
    if let Ok(list) = preset.cast::<pyo3::types::PyList>() {
        if list.is_empty() {
            return Err(PyValueError::new_err("the list of rule sets is empty"));
        }
        let all: PyResult<Vec<_>> = list.iter().map(|p| rules_arg(py, &p, num_players, rules)).collect();
        return Ok(RulesSource::List(all?));
    }
    Ok(RulesSource::One(rules_arg(py, preset, num_players, rules)?))
}

/// Size in bytes of one `Game` (the engine state of one table).
#[pyfunction]
pub fn game_state_bytes() -> usize {
    std::mem::size_of::<Game>()
}

/// The seed of episode `k` of game `i` of a batch reset with `seed` (episode 0 is
/// `derive_seed(seed, i)`).
#[pyfunction]
pub fn episode_seed(seed: &Bound<'_, PyAny>, i: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>) -> PyResult<u64> {
    let arg = |o: &Bound<'_, PyAny>, name: &str| int_in(o, name, 0u64, u64::MAX);
    Ok(crate::vec_env::episode_seed(arg(seed, "seed")?, arg(i, "i")?, arg(k, "k")?))
}

/// Register the vector-env bindings in `_core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecEnvCore>()?;
    m.add_function(wrap_pyfunction!(game_state_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(episode_seed, m)?)?;
    Ok(())
}

/// A call of bot `spec` on an env's games: a search bot's or a batched network's under Ctrl-C
/// with the env's `stop` flag (the searches read it, the network between parts of the rows;
/// cleared first, so that no Ctrl-C during the call is lost), a quick bot's (it answers at
/// once) just without the GIL.
fn bot_call<F>(py: Python<'_>, spec: crate::bots::BotSpec, stop: &crate::stop::Stop, work: F) -> PyResult<()>
where
    F: FnOnce() -> Result<(), crate::vec_env::VecEnvError> + Send,
{
    stop.clear();
    if crate::bots::batch::style(spec) != crate::bots::batch::Style::Quick {
        run_interruptible_on(py, stop, work)?
    } else {
        py.detach(work)
    }
    .map_err(vec_err)
}
