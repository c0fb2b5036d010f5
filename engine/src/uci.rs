//! The UCI protocol: parsing commands into a typed form; the binary dispatches them.
