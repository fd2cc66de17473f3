# deploy/container/engine.sh: sourced by the container scripts; defines
# engine ARGS..., which runs $engine (podman or docker) with what this
# kind of host needs. Debian 12's podman 4.3 runs containers here only
# with runc (crun refuses hybrid cgroup hierarchies) and with nofile and
# nproc limits at or under the hard limits of the calling shell, so those
# are passed explicitly; the nproc limit also at most kernel.pid_max
# (runc failed to set 32769 where pid_max is 32768). docker needs nothing
# extra.
engine_nproc() {
	local n max
	n=$(ulimit -Hu)
	max=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 32768)
	if [ "$n" = unlimited ] || [ "$n" -gt "$max" ]; then
		n=$max
	fi
	echo "$n"
}

engine() {
	local sub=$1
	shift
	case $engine in
	podman)
		case $sub in
		run | build | create)
			podman --runtime runc "$sub" \
				--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" \
				--ulimit "nproc=$(engine_nproc):$(engine_nproc)" "$@" ;;
		*) podman "$sub" "$@" ;;
		esac ;;
	docker)
		case $sub in
		image)
			# docker has no `image exists`
			if [ "${1:-}" = exists ]; then
				docker image inspect "$2" >/dev/null 2>&1
			else
				docker image "$@"
			fi ;;
		*) docker "$sub" "$@" ;;
		esac ;;
	*)
		echo "reckon: unknown container engine '$engine' (podman or docker)" >&2
		return 2 ;;
	esac
}

# engine_build TAG BUILD-ARGS...: engine build -t TAG BUILD-ARGS..., then
# removes the image TAG named before when the build replaced it, so
# rebuilds do not pile up untagged images.
engine_build() {
	local tag=$1 old new
	shift
	old=$(engine image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
	engine build -t "$tag" "$@" || return
	new=$(engine image inspect --format '{{.Id}}' "$tag")
	if [ -n "$old" ] && [ "$old" != "$new" ]; then
		engine rmi "$old" >/dev/null 2>&1 || true
	fi
}
