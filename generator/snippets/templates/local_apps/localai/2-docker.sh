docker run -p 8080:8080 --name localai -v "$PWD/models:/build/models" localai/localai:latest-cpu \
    {{ ("huggingface://" ~ id ~ "/" ~ file) | sh }}
