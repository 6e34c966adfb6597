{% set name = id | split("/") | last %}
{% if name == "activation" %}
import torch
from kernels import get_kernel

# Downloads the pre-built kernel matching your torch, CUDA and Python versions.
activation = get_kernel({{ id | py }})

x = torch.randn((16, 16), dtype=torch.float16, device="cuda")
y = torch.empty_like(x)
activation.gelu_fast(y, x)
print(y)
{% else %}
from kernels import get_kernel

# Downloads the pre-built kernel matching your torch, CUDA and Python versions.
kernel = get_kernel({{ id | py }})

# The functions this kernel exports:
print([fn for fn in dir(kernel) if not fn.startswith("_")])
{% endif %}
