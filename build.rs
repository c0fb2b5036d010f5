fn main() {
    // The German catalogue is compiled into the UI (Slint's bundled translations); messages
    // have no context so that Rust and Slint share one catalogue (src/i18n).
    let config = slint_build::CompilerConfiguration::new()
        .with_bundled_translations("translations")
        .with_default_translation_context(slint_build::DefaultTranslationContext::None);
    slint_build::compile_with_config("ui/app.slint", config).expect("ui/app.slint compiles");
    println!("cargo:rerun-if-changed=translations");
}
