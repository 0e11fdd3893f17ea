//! The ONNX Runtime the three embedded models run on (the detector, the safety classifier
//! and the scene classifier).
//!
//! The library is not linked at build time: `make models` (`scripts/fetch-models.sh`) takes
//! `libonnxruntime.so` 1.32.0 out of PyPI's official `onnxruntime` wheel, checks its sha256
//! and puts it beside the models; [`Model::load`] loads it from there once per process
//! (the `ort` crate's `load-dynamic`) after checking the sha256 again. On this machine it
//! runs each inference 1.5-2.2x faster than tract did (models/README.md, docs/scoring.md).
//!
//! Every session runs on the calling thread alone (one intra-op thread, no inter-op pool):
//! the analysis threads already spread one photo's inferences over the cores, and a second
//! pool per model would only fight them. The CPU arena and memory patterns are off, so a
//! session's working memory goes back to the allocator after each run instead of being kept
//! at its high-water mark for every model.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ort::environment::Environment;
use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::Tensor;
use sha2::{Digest, Sha256};

/// The runtime's file name in the models folder.
pub const LIBRARY_FILE: &str = "libonnxruntime.so";

/// sha256 of `libonnxruntime.so.1.32.0` in `onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl`.
pub const LIBRARY_SHA256: &str = "6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f";

#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error(
        "the ONNX Runtime library {path} is missing: run `make models` to fetch it (see models/README.md)"
    )]
    Missing { path: PathBuf },
    #[error(
        "the ONNX Runtime library {path} is not the expected file: sha256 is {actual}, expected {expected} \
         (run `make models` to fetch it again; see models/README.md)"
    )]
    Checksum { path: PathBuf, expected: &'static str, actual: String },
    #[error("cannot start the ONNX Runtime library {path}: {message}")]
    Start { path: PathBuf, message: String },
}

/// The one runtime environment of the process, started by the first model loaded.
static ENVIRONMENT: OnceLock<Environment> = OnceLock::new();
/// Held while the runtime is being started, so that it is started once.
static STARTING: Mutex<()> = Mutex::new(());

/// The runtime, loaded from `library` the first time (later calls get the same one, whatever
/// path they give). A failed start is not remembered: a later call with the library in place
/// starts it.
fn environment(library: &Path) -> Result<&'static Environment, RuntimeError> {
    // Called only when a model is loaded: the lock costs nothing worth a lock-free path.
    let _starting = STARTING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(environment) = ENVIRONMENT.get() {
        return Ok(environment);
    }
    let started = start(library)?;
    Ok(ENVIRONMENT.get_or_init(|| started))
}

fn start(library: &Path) -> Result<Environment, RuntimeError> {
    let bytes = std::fs::read(library).map_err(|_| RuntimeError::Missing { path: library.to_owned() })?;
    let actual = hex::encode(Sha256::digest(&bytes));
    if actual != LIBRARY_SHA256 {
        return Err(RuntimeError::Checksum { path: library.to_owned(), expected: LIBRARY_SHA256, actual });
    }
    let failed =
        |e: &dyn std::fmt::Display| RuntimeError::Start { path: library.to_owned(), message: e.to_string() };
    ort::init_from(library).map_err(|e| failed(&e))?.with_name("setupiq").build().map_err(|e| failed(&e))
}

/// One output of a run: its dimensions and its values, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    pub shape: Vec<usize>,
    pub values: Vec<f32>,
}

/// One model's session. `run` takes the session for the length of one inference: the
/// analysis of one photo never runs the same model on two threads at once (see
/// `LocalModels::look_and_check_safety`), and across photos the threads are busy anyway.
pub struct Model {
    session: Mutex<Session>,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model").finish_non_exhaustive()
    }
}

impl Model {
    /// The model in `bytes` (its checksum already verified by the caller), on the runtime in
    /// the same folder as `model_path`. `extra_outputs` names inner values of the graph to
    /// answer beside its own outputs (the scene classifier's embedding).
    pub fn load(model_path: &Path, bytes: &[u8], extra_outputs: &[&str]) -> Result<Model, String> {
        let library = model_path.with_file_name(LIBRARY_FILE);
        let environment = environment(&library).map_err(|e| e.to_string())?;
        let bytes = with_outputs(bytes, extra_outputs)?;
        let text = |e: ort::Error<_>| e.to_string();
        let cpu = ort::ep::CPU::default().with_arena_allocator(false).build();
        let session = Session::builder(environment)
            .map_err(|e| e.to_string())?
            .with_optimization_level(GraphOptimizationLevel::All)
            .map_err(text)?
            .with_intra_threads(1)
            .map_err(text)?
            .with_inter_threads(1)
            .map_err(text)?
            .with_parallel_execution(false)
            .map_err(text)?
            .with_memory_pattern(false)
            .map_err(text)?
            .with_execution_providers([cpu])
            .map_err(text)?
            .commit_from_memory(&bytes)
            .map_err(|e| e.to_string())?;
        Ok(Model { session: Mutex::new(session) })
    }

    /// Runs the model on one f32 input of `shape`; every output in the graph's order, then
    /// `extra_outputs`'.
    pub fn run(&self, shape: [usize; 4], input: Vec<f32>) -> Result<Vec<Output>, String> {
        let input = Tensor::from_array((shape, input)).map_err(|e| format!("{e}"))?;
        let mut session = self.session.lock().map_err(|_| "the model's session was poisoned".to_owned())?;
        let outputs = session.run(ort::inputs![input]).map_err(|e| format!("{e}"))?;
        outputs
            .values()
            .map(|value| {
                let (shape, values) = value.try_extract_tensor::<f32>().map_err(|e| format!("{e}"))?;
                #[allow(clippy::cast_sign_loss)] // an output's dimensions are known, not symbolic
                let shape = shape.iter().map(|&d| d.max(0) as usize).collect();
                Ok(Output { shape, values: values.to_vec() })
            })
            .collect()
    }
}

/// `model` (an ONNX `ModelProto`) with `names` added to its graph's outputs (the bytes as
/// they are, not copied, when there are none).
///
/// ONNX Runtime answers only a graph's outputs; the scene classifier's embedding is the input
/// of its last layer. The edit is two protobuf fields: the `GraphProto` (`ModelProto` field 7)
/// gets one `ValueInfoProto` output (field 12) per name holding only that name (field 1); the
/// runtime infers its type. Everything else is copied byte for byte.
pub fn with_outputs<'m>(model: &'m [u8], names: &[&str]) -> Result<Cow<'m, [u8]>, String> {
    if names.is_empty() {
        return Ok(Cow::Borrowed(model));
    }
    const GRAPH: u64 = 7;
    const GRAPH_OUTPUT: u64 = 12;
    const VALUE_INFO_NAME: u64 = 1;
    const LENGTH_DELIMITED: u64 = 2;
    let mut out = Vec::with_capacity(model.len() + 64);
    let mut rest = model;
    let mut found = false;
    while !rest.is_empty() {
        let start = rest;
        let key = read_varint(&mut rest)?;
        let (field, wire) = (key >> 3, key & 7);
        let value_len = match wire {
            0 => {
                read_varint(&mut rest)?;
                0
            }
            1 => 8,
            5 => 4,
            2 => usize::try_from(read_varint(&mut rest)?).map_err(|_| "a field too long".to_owned())?,
            _ => return Err(format!("unexpected protobuf wire type {wire} in the model")),
        };
        if rest.len() < value_len {
            return Err("the model is truncated".to_owned());
        }
        let (value, after) = rest.split_at(value_len);
        if field == GRAPH && wire == LENGTH_DELIMITED {
            found = true;
            let mut graph = value.to_vec();
            for name in names {
                let mut info = Vec::new();
                write_varint(&mut info, VALUE_INFO_NAME << 3 | LENGTH_DELIMITED);
                write_varint(&mut info, name.len() as u64);
                info.extend_from_slice(name.as_bytes());
                write_varint(&mut graph, GRAPH_OUTPUT << 3 | LENGTH_DELIMITED);
                write_varint(&mut graph, info.len() as u64);
                graph.extend_from_slice(&info);
            }
            write_varint(&mut out, key);
            write_varint(&mut out, graph.len() as u64);
            out.extend_from_slice(&graph);
        } else {
            out.extend_from_slice(&start[..start.len() - after.len()]);
        }
        rest = after;
    }
    if found { Ok(Cow::Owned(out)) } else { Err("the model has no graph".to_owned()) }
}

fn read_varint(bytes: &mut &[u8]) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes.split_first().ok_or_else(|| "the model is truncated".to_owned())?;
        *bytes = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a malformed varint in the model".to_owned())
}

fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        #[allow(clippy::cast_possible_truncation)] // the low seven bits
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    #[allow(clippy::cast_possible_truncation)] // < 0x80
    out.push(value as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for value in [0, 1, 127, 128, 300, 18_613_441, u64::from(u32::MAX), u64::MAX] {
            let mut bytes = Vec::new();
            write_varint(&mut bytes, value);
            assert_eq!(read_varint(&mut bytes.as_slice()), Ok(value));
        }
    }

    #[test]
    fn an_output_is_added_to_the_graph_and_the_rest_is_kept() {
        // ModelProto { ir_version: 7, graph: GraphProto { name: "g" }, opset_import: {} }
        let model = [0x08, 0x07, 0x3a, 0x03, 0x12, 0x01, b'g', 0x42, 0x00];
        let edited = with_outputs(&model, &["x"]).unwrap();
        assert_eq!(
            *edited,
            [0x08, 0x07, 0x3a, 0x08, 0x12, 0x01, b'g', 0x62, 0x03, 0x0a, 0x01, b'x', 0x42, 0x00]
        );
        assert_eq!(*with_outputs(&model, &[]).unwrap(), model);
        assert!(with_outputs(&model[..5], &["x"]).is_err(), "a truncated model is refused");
        assert!(with_outputs(&[0x08, 0x07], &["x"]).is_err(), "a model without a graph is refused");
    }
}
