//! Standard Algebraic Notation: writing with exact disambiguation and check marks, reading
//! tolerantly of common variants and strictly about ambiguity.
