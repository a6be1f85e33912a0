//! Reading a weights file: the checks of its path before it is read ([`checked_file`]), and one
//! named tensor of a safetensors file, checked against the shape the network calls for and
//! widened from float16 to float32. Both learned bots (`net1`, `net`) load their files through it.

use half::f16;
use safetensors::{Dtype, SafeTensors};
use std::fs::Metadata;
use std::path::{Path, PathBuf};

/// The largest weights file read (bytes): far above any network a bot plays (the shipped `net`
/// is under 1 MB, a width-4096 card network about 100 MB in float16), far below a file read
/// whole by mistake (a 3 GB file took 3.2 GB and 9 s to be refused).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The canonical path and metadata of the weights file at `path`, refused (in words that follow
/// the file's name) when it is missing, a folder, not a regular file (a pipe would block the
/// read, deaf to Ctrl-C; a device such as /dev/zero never end it) or over [`MAX_FILE_BYTES`].
/// `what` names such a file in the advice ("a bot file").
pub(crate) fn checked_file(path: &Path, what: &str) -> Result<(PathBuf, Metadata), String> {
    let full = std::fs::canonicalize(path)
        .map_err(|e| format!("cannot open it ({e}); {what} is the path of an existing weights file"))?;
    let meta = std::fs::metadata(&full).map_err(|e| format!("cannot read it ({e})"))?;
    if meta.is_dir() {
        return Err("is a folder, not a .safetensors file".into());
    }
    if !meta.is_file() {
        return Err(format!("is not a regular file (a pipe, a device or a socket); {what} is a weights file"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "is {} bytes; {what} is at most {} (the shipped net's is under 1 MB)",
            crate::rules::thousands(meta.len() as usize),
            crate::rules::thousands(MAX_FILE_BYTES as usize)
        ));
    }
    Ok((full, meta))
}

/// The float32 values of tensor `name`, which must have exactly `shape` and be float32 or float16.
pub(crate) fn tensor(st: &SafeTensors<'_>, name: &str, shape: &[usize]) -> Result<Vec<f32>, String> {
    let t = st.tensor(name).map_err(|e| format!("net weights: tensor {name:?}: {e}"))?;
    if t.shape() != shape {
        return Err(format!("net weights: tensor {name:?} must have shape {shape:?}, got {:?}", t.shape()));
    }
    // safetensors stores little-endian values; float16 widens to float32 exactly.
    let values: Vec<f32> = match t.dtype() {
        Dtype::F32 => t.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
        Dtype::F16 => t.data().chunks_exact(2).map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
        other => return Err(format!("net weights: tensor {name:?} must be float32 or float16, got {other:?}")),
    };
    // A NaN weight makes every logit NaN, and the bot would play its lowest legal action under
    // the file's name: a file no training writes, refused here rather than played.
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(format!(
            "net weights: tensor {name:?} holds a value that is not finite ({} at index {i}); \
             every weight must be a finite number",
            values[i]
        ));
    }
    Ok(values)
}
