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

// The fields of the ONNX protobuf messages the edits below walk through (onnx.proto3).
const LENGTH_DELIMITED: u64 = 2;
const MODEL_GRAPH: u64 = 7;
const GRAPH_INPUT: u64 = 11;
const GRAPH_OUTPUT: u64 = 12;
const VALUE_INFO_NAME: u64 = 1;
const VALUE_INFO_TYPE: u64 = 2;
const TYPE_TENSOR: u64 = 1;
const TENSOR_SHAPE: u64 = 2;
const SHAPE_DIM: u64 = 1;
const DIM_PARAM: u64 = 2;

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
    let (edited, graphs) = rewrite(model, MODEL_GRAPH, |_, graph| {
        let mut graph = graph.to_vec();
        for name in names {
            let info = field(VALUE_INFO_NAME, name.as_bytes());
            graph.extend_from_slice(&field(GRAPH_OUTPUT, &info));
        }
        Ok(Some(graph))
    })?;
    if graphs == 0 { Err("the model has no graph".to_owned()) } else { Ok(Cow::Owned(edited)) }
}

/// `model` with the height and width of its first input (dimensions 2 and 3 of an NCHW
/// image) left free, named `height` and `width`, so that one session runs the model on
/// images of any size (the scene classifier's closer look at the whole photo beside its
/// 224-pixel views; its pooling is global, so every size gives the same outputs' shapes).
/// Everything else is copied byte for byte.
pub fn with_free_sides(model: &[u8]) -> Result<Vec<u8>, String> {
    let first_input_dims = [
        (MODEL_GRAPH, None),
        (GRAPH_INPUT, Some(0)),
        (VALUE_INFO_TYPE, None),
        (TYPE_TENSOR, None),
        (TENSOR_SHAPE, None),
    ];
    let sides = |at: usize, _dim: &[u8]| match at {
        2 => Some(field(DIM_PARAM, b"height")),
        3 => Some(field(DIM_PARAM, b"width")),
        _ => None,
    };
    let (edited, graphs) = rewrite_within(model, &first_input_dims, SHAPE_DIM, &sides)?;
    if graphs == 0 { Err("the model has no graph".to_owned()) } else { Ok(edited) }
}

/// Makes a field's new value from its index among its kind and its value (`None` keeps it).
type Edit<'e> = &'e dyn Fn(usize, &[u8]) -> Option<Vec<u8>>;

/// [`rewrite`] of the fields `number` inside the message reached by `path` (each step a field
/// number and, where only one occurrence is meant, its index), `edit` making each one's new
/// value (`None` keeps it). Answers the edited message and how many fields the first step
/// matched.
fn rewrite_within(
    message: &[u8],
    path: &[(u64, Option<usize>)],
    number: u64,
    edit: Edit<'_>,
) -> Result<(Vec<u8>, usize), String> {
    let Some(((step, only), deeper)) = path.split_first() else {
        return rewrite(message, number, |at, value| Ok(edit(at, value)));
    };
    rewrite(message, *step, |at, value| {
        if only.is_some_and(|only| only != at) {
            return Ok(None);
        }
        rewrite_within(value, deeper, number, edit).map(|(bytes, _)| Some(bytes))
    })
}

/// `message` with every length-delimited field `number` replaced by what `edit` makes of its
/// value (given how many such fields came before it; `None` keeps it as it is), and how many
/// there were. Every other field is copied byte for byte.
fn rewrite(
    message: &[u8],
    number: u64,
    mut edit: impl FnMut(usize, &[u8]) -> Result<Option<Vec<u8>>, String>,
) -> Result<(Vec<u8>, usize), String> {
    let mut out = Vec::with_capacity(message.len() + 64);
    let mut rest = message;
    let mut seen = 0;
    while !rest.is_empty() {
        let start = rest;
        let key = read_varint(&mut rest)?;
        let (field_number, wire) = (key >> 3, key & 7);
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
        let edited = if field_number == number && wire == LENGTH_DELIMITED {
            seen += 1;
            edit(seen - 1, value)?
        } else {
            None
        };
        match edited {
            Some(value) => out.extend_from_slice(&field(field_number, &value)),
            None => out.extend_from_slice(&start[..start.len() - after.len()]),
        }
        rest = after;
    }
    Ok((out, seen))
}

/// One length-delimited protobuf field: its key, its length and `value`.
fn field(number: u64, value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len() + 12);
    write_varint(&mut out, number << 3 | LENGTH_DELIMITED);
    write_varint(&mut out, value.len() as u64);
    out.extend_from_slice(value);
    out
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

    /// A `ModelProto` whose graph has one input of `dims` (each a `Dimension` message).
    fn model_with_input(dims: &[Vec<u8>]) -> Vec<u8> {
        let shape: Vec<u8> = dims.iter().flat_map(|dim| field(SHAPE_DIM, dim)).collect();
        let mut tensor = vec![0x08, 0x01]; // elem_type: FLOAT
        tensor.extend(field(TENSOR_SHAPE, &shape));
        let mut input = field(VALUE_INFO_NAME, b"input");
        input.extend(field(VALUE_INFO_TYPE, &field(TYPE_TENSOR, &tensor)));
        let mut graph = field(1, b"node"); // a field that is not an input, kept as it is
        graph.extend(field(GRAPH_INPUT, &input));
        let mut model = vec![0x08, 0x07]; // ir_version: 7
        model.extend(field(MODEL_GRAPH, &graph));
        model
    }

    #[test]
    fn the_first_inputs_height_and_width_are_freed_and_the_rest_is_kept() {
        let value = |n: u8| vec![0x08, n]; // Dimension { dim_value: n }
        let model = model_with_input(&[value(1), value(3), value(112), value(112)]);
        let freed = with_free_sides(&model).unwrap();
        let param = |name: &[u8]| field(DIM_PARAM, name);
        assert_eq!(freed, model_with_input(&[value(1), value(3), param(b"height"), param(b"width")]));
        assert!(with_free_sides(&[0x08, 0x07]).is_err(), "a model without a graph is refused");
        assert!(with_free_sides(&model[..model.len() - 3]).is_err(), "a truncated model is refused");
    }
}
