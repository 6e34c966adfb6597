{#- colipri's get_model() downloads the microsoft/colipri weights. -#}
from colipri import ZeroShotImageClassificationPipeline, get_model, get_processor, load_sample_ct

model = get_model().cuda()  # weights from {{ id | comment }}
processor = get_processor()
pipeline = ZeroShotImageClassificationPipeline(model, processor)

image = load_sample_ct()  # or your own chest CT volume
print(pipeline(image, ["No lung nodules", "Lung nodules"]))
