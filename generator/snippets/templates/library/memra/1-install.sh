# Prebuilt Linux x86_64 binaries (NVIDIA driver with CUDA 13 runtime)
curl -fsSL https://raw.githubusercontent.com/avifenesh/memra/main/tools/install.sh | sh
export PATH="$HOME/.local/bin:$PATH"
kernel-check
