# WhisperKit runs Whisper with Core ML on Apple silicon (macOS). Install its command-line tool:
brew install whisperkit-cli
