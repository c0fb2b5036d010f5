fn main() {
    println!("ChessPI {}", env!("CARGO_PKG_VERSION"));
}
