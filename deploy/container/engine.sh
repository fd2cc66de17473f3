# deploy/container/engine.sh: sourced by the container scripts; defines
# engine ARGS..., which runs $engine (podman or docker) with what this
# kind of host needs. Debian 12's podman 4.3 runs containers here only
# with runc (crun refuses hybrid cgroup hierarchies) and with nofile and
# nproc limits at or under the hard limits of the calling shell, so those
# are passed explicitly; docker needs nothing extra.
engine() {
	local sub=$1
	shift
	case $engine in
	podman)
		case $sub in
		run | build | create)
			podman --runtime runc "$sub" \
				--ulimit "nofile=$(ulimit -Sn):$(ulimit -Hn)" \
				--ulimit "nproc=$(ulimit -Su):$(ulimit -Hu)" "$@" ;;
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
