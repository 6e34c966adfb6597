// Embeds every snippet template in the binary, so the engine does no I/O.
fn main() {
    minijinja_embed::embed_templates!("templates");
}
