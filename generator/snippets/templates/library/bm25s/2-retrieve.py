import bm25s
from bm25s.hf import BM25HF

# load_corpus=True also downloads the documents, so results are texts, not ids
retriever = BM25HF.load_from_hub({{ id | py }}, load_corpus=True)

query = {{ (widget_text or "What is the capital of France?") | py }}
results, scores = retriever.retrieve(bm25s.tokenize(query), k=3)
for document, score in zip(results[0], scores[0]):
    print(f"{score:.2f}", document)
