# Run the policy on a robot and record 10 evaluation episodes of 50 seconds
HF_USER="your-username"  # your Hugging Face user name
ROBOT_PORT="/dev/ttyACM0"  # serial port of your follower arm

lerobot-record \
    --robot.type=so101_follower \
    --robot.port="$ROBOT_PORT" \
    --robot.id=my_follower_arm \
    --robot.cameras="{ front: {type: opencv, index_or_path: 0, width: 640, height: 480, fps: 30}}" \
    --dataset.repo_id="${HF_USER}/eval_my_policy" \
    --dataset.single_task="Pick up the cube and put it in the box" \
    --dataset.num_episodes=10 \
    --dataset.episode_time_s=50 \
    --policy.path={{ id | sh }}
