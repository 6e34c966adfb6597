{#- CollectorVision reads a card catalog from the Hub ("hf://<repo>/<catalog key>");
    scryfall-mtg is the Magic: The Gathering catalog. -#}
import collector_vision as cvg
import cv2

catalog = cvg.Catalog.load({{ ("hf://" ~ id ~ "/scryfall-mtg") | py }})

image = cv2.imread("card_photo.jpg")  # your photo of a card
detection = cvg.NeuralCornerDetector().detect(image)
crop = detection.dewarp(image)  # the card, straightened

embedding = catalog.embedder.embed(crop)
for score, card_id in catalog.search(embedding, top_k=5):
    print(f"{score:.3f}", card_id)
