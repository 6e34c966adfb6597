# Sana runs from its repository; the script creates a conda environment named "sana"
git clone https://github.com/NVlabs/Sana.git
cd Sana
./environment_setup.sh sana
