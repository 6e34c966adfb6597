git clone https://github.com/Phantom-video/Phantom.git
cd Phantom
pip install -r requirements.txt
