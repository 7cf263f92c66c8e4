//! The validator: the rules the D3D9 runtime applies before a driver sees a shader,
//! per shader version, each finding with a stable code, DWORD offset and reason.
