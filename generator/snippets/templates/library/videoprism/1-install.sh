# VideoPrism is a JAX/Flax library installed from its repository
git clone https://github.com/google-deepmind/videoprism.git
cd videoprism
pip install . mediapy
