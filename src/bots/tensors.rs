//! Reading the tensors of a shipped weights file: one named tensor of a safetensors file, checked
//! against the shape the network calls for and widened from float16 to float32. Both learned
//! bots (`net1`, `net`) load their files through it.

use half::f16;
use safetensors::{Dtype, SafeTensors};

/// The float32 values of tensor `name`, which must have exactly `shape` and be float32 or float16.
pub(crate) fn tensor(st: &SafeTensors<'_>, name: &str, shape: &[usize]) -> Result<Vec<f32>, String> {
    let t = st.tensor(name).map_err(|e| format!("net weights: tensor {name:?}: {e}"))?;
    if t.shape() != shape {
        return Err(format!("net weights: tensor {name:?} must have shape {shape:?}, got {:?}", t.shape()));
    }
    // safetensors stores little-endian values; float16 widens to float32 exactly.
    match t.dtype() {
        Dtype::F32 => Ok(t.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()),
        Dtype::F16 => Ok(t.data().chunks_exact(2).map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32()).collect()),
        other => Err(format!("net weights: tensor {name:?} must be float32 or float16, got {other:?}")),
    }
}
