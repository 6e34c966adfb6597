# Prebuilt archives: https://github.com/QuintinShaw/openasr/releases
# Or build the CLI from source (needs cmake, a C/C++ toolchain and Rust):
git clone --recurse-submodules https://github.com/QuintinShaw/openasr.git
cd openasr
cargo build --release -p openasr-cli
export PATH="$PWD/target/release:$PATH"
