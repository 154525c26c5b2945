#!/bin/sh
# Build java-random into ./classes with Debian's msgpack-core (apt-get install libmsgpack-java default-jdk-headless).
set -e
cd "$(dirname "$0")"
javac -encoding UTF-8 -Xlint:all -Werror -cp /usr/share/java/msgpack-core.jar -d classes Bot.java Frames.java
