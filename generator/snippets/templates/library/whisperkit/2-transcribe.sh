# Download one model folder of this repository (each folder is one Core ML Whisper variant)
MODEL="openai_whisper-base"  # the folder of the variant you want, see the repository files
hf download {{ id | sh }} --include "$MODEL/*" --local-dir whisperkit-models

AUDIO="sample.wav"  # your audio file
whisperkit-cli transcribe --model-path "whisperkit-models/$MODEL" --audio-path "$AUDIO"

# In a Swift app, add the WhisperKit package (https://github.com/argmaxinc/WhisperKit) and run:
#   import WhisperKit
#   let pipe = try await WhisperKit(WhisperKitConfig(model: "base"))
#   let text = try await pipe.transcribe(audioPath: "sample.wav").map { $0.text }
# WhisperKit downloads the variant from {{ id | comment }} by default.
